import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";

let encoder: Tiktoken | undefined;

/** cl100k tokens of a text (the budget unit of every chunk size). The encoder is built once per process. */
export function countTokens(text: string): number {
  if (!text) return 0;
  encoder ??= new Tiktoken(cl100k);
  return encoder.encode(text).length;
}
