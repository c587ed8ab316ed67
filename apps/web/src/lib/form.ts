import type { FormInstance } from "antd";

type FieldNames = Parameters<FormInstance["validateFields"]>[0];

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
