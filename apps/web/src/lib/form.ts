import { App, type FormInstance } from "antd";
import { useState } from "react";

type FieldNames = Parameters<FormInstance["validateFields"]>[0];

/**
 * Spread on a Form.Item with a hint (`extra`): it keeps its space under the hint when an error shows
 * too. antd takes the item's margin back for the error's line (whatever the margin), so the hint
 * touched the next label; padding it keeps.
 */
export const hinted = { style: { marginBottom: 0, paddingBottom: 24 } };

/**
 * The form's values, or null when a field is invalid: antd's `validateFields()` rejects then, the
 * form already shows why, and an awaited rejection in a click handler would go unhandled.
 * Anything else (a bug) is thrown on.
 */
export async function validated<T>(form: FormInstance<T>, fields?: FieldNames): Promise<T | null> {
  try {
    return await (fields ? form.validateFields(fields) : form.validateFields());
  } catch (err) {
    if (err && typeof err === "object" && "errorFields" in err) return null;
    throw err;
  }
}

/**
 * Shows a refused save's message under the field it is about, else as a toast. The server names no
 * field: a contract's own check says "参数错误：<field> …", and other refusals are told apart by their
 * words (`words`: per field, what a message about it says).
 */
export function showRefusal<F extends string>(
  form: FormInstance,
  err: unknown,
  words: Record<F, RegExp | null>,
  toast: (text: string) => void,
) {
  const text = err instanceof Error ? err.message : String(err);
  const fields = Object.keys(words) as F[];
  const named = /^(?:参数错误：|parameter error: )([\w.]+)/i.exec(text)?.[1]?.split(".").at(-1) as F | undefined;
  const field = named && fields.includes(named) ? named : fields.find((f) => words[f]?.test(text));
  if (field) form.setFields([{ name: field, errors: [text] }]);
  else toast(text);
}

/**
 * A dialog's save: the form's values checked, then `submit` (one at a time, `saving` meanwhile);
 * a refusal shows under its field (`showRefusal`'s `words`) or as a toast.
 */
export function useFormSave<V, F extends string>(
  form: FormInstance<V>,
  submit: (values: V) => Promise<void>,
  words: Record<F, RegExp | null>,
) {
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      await submit(values);
    } catch (err) {
      showRefusal(form as FormInstance, err, words, message.error);
    } finally {
      setSaving(false);
    }
  };
  return { save, saving };
}
