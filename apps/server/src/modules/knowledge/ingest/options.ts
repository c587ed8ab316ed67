import { RE2JS } from "re2js";
import { IngestError, SEGMENT_METHODS, type CleaningRules, type SegmentMethod, type SegmentOptions } from "./types.ts";

export const DEFAULT_CHUNK_SIZE = 512;
export const MIN_CHUNK_SIZE = 32;
export const MAX_CHUNK_SIZE = 8192;
const MAX_DELIMITERS = 20;
const MAX_DELIMITER_LENGTH = 16;
const MAX_REPLACEMENTS = 20;
const MAX_PATTERN_LENGTH = 500;
const MAX_REPLACEMENT_LENGTH = 1000;

/** Options with every default filled in and every cleaning regex compiled. */
export interface NormalizedOptions {
  method: SegmentMethod;
  chunkSize: number;
  overlap: number;
  delimiters: string[];
  cleaning: NormalizedCleaning;
}

export interface NormalizedCleaning {
  collapseWhitespace: boolean;
  dropUrls: boolean;
  dropEmails: boolean;
  replace: { pattern: RE2JS; replacement: string }[];
}

/** Paragraph, line, then sentence ends (Chinese and Latin), then clause marks: where auto cuts, best first. */
export const DEFAULT_DELIMITERS = ["\n\n", "\n", "。", "！", "？", "；", ". ", "! ", "? ", "; ", "，", ", ", " "];

const invalid = (message: string) => new IngestError("invalidOptions", message);

/** Checks the caller's options (any shape) and fills in the defaults; throws IngestError("invalidOptions"). */
export function normalizeOptions(input: SegmentOptions): NormalizedOptions {
  if (!input || typeof input !== "object") throw invalid("options must be an object");
  const method = input.method;
  if (!SEGMENT_METHODS.includes(method)) throw invalid(`method must be one of ${SEGMENT_METHODS.join(", ")}`);
  const chunkSize = integer(input.chunkSize, "chunkSize", DEFAULT_CHUNK_SIZE, MIN_CHUNK_SIZE, MAX_CHUNK_SIZE);
  const overlap = integer(input.overlap, "overlap", 0, 0, Math.floor(chunkSize / 2));
  return { method, chunkSize, overlap, delimiters: delimiters(input.delimiters), cleaning: cleaning(input.cleaning) };
}

function integer(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function delimiters(value: unknown): string[] {
  if (value === undefined || value === null) return DEFAULT_DELIMITERS;
  if (!Array.isArray(value) || value.length > MAX_DELIMITERS) throw invalid(`delimiters must be a list of at most ${MAX_DELIMITERS}`);
  const list = value.map((d) => {
    if (typeof d !== "string" || d.length === 0 || d.length > MAX_DELIMITER_LENGTH) {
      throw invalid(`each delimiter must be text of 1 to ${MAX_DELIMITER_LENGTH} characters`);
    }
    // Users type "\n" in a text box: read the usual escapes.
    return d.replace(/\\n/g, "\n").replace(/\\t/g, "\t");
  });
  return list.length ? [...new Set(list)] : DEFAULT_DELIMITERS;
}

function cleaning(value: CleaningRules | undefined): NormalizedCleaning {
  if (value === undefined || value === null) return { collapseWhitespace: false, dropUrls: false, dropEmails: false, replace: [] };
  if (typeof value !== "object") throw invalid("cleaning must be an object");
  const flag = (v: unknown, name: string) => {
    if (v !== undefined && typeof v !== "boolean") throw invalid(`cleaning.${name} must be true or false`);
    return v === true;
  };
  const rules = value.replace ?? [];
  if (!Array.isArray(rules) || rules.length > MAX_REPLACEMENTS)
    throw invalid(`cleaning.replace must be a list of at most ${MAX_REPLACEMENTS}`);
  return {
    collapseWhitespace: flag(value.collapseWhitespace, "collapseWhitespace"),
    dropUrls: flag(value.dropUrls, "dropUrls"),
    dropEmails: flag(value.dropEmails, "dropEmails"),
    replace: rules.map((rule, i) => compileReplacement(rule, i)),
  };
}

function compileReplacement(rule: unknown, i: number): { pattern: RE2JS; replacement: string } {
  const where = `cleaning.replace[${i}]`;
  if (!rule || typeof rule !== "object") throw invalid(`${where} must be {pattern, replacement}`);
  const { pattern, replacement = "", flags = "" } = rule as Record<string, unknown>;
  if (typeof pattern !== "string" || pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) {
    throw invalid(`${where}.pattern must be a regular expression of 1 to ${MAX_PATTERN_LENGTH} characters`);
  }
  if (typeof replacement !== "string" || replacement.length > MAX_REPLACEMENT_LENGTH) {
    throw invalid(`${where}.replacement must be text of at most ${MAX_REPLACEMENT_LENGTH} characters`);
  }
  if (typeof flags !== "string" || !/^[imsu]*$/.test(flags) || new Set(flags).size !== flags.length) {
    throw invalid(`${where}.flags may only hold i, m, s, u (once each)`);
  }
  // RE2's engine: time linear in the text whatever the pattern. A backtracking engine (JavaScript's)
  // ran "(a|a)*b" over 20 letters for 15 s, holding every request (found by an attack pass). RE2 has no
  // back-references or look-around; such a pattern is refused as invalid. Text is always Unicode ("u").
  const bits =
    (flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0) |
    (flags.includes("m") ? RE2JS.MULTILINE : 0) |
    (flags.includes("s") ? RE2JS.DOTALL : 0);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, bits);
  } catch (e) {
    throw invalid(`${where}.pattern is not a valid regular expression: ${(e as Error).message}`);
  }
  if (compiled.matcher("").find()) throw invalid(`${where}.pattern must not match empty text`);
  return { pattern: compiled, replacement };
}
