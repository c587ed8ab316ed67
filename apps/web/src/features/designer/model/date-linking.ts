import { DATE_LINK_FORM } from "@agentfair/contracts";

/** The configured form (§5): the build may name another design (VITE_DESIGNER_LINKED_FORM_ID). */
export const LINKED_FORM_ID: string = import.meta.env.VITE_DESIGNER_LINKED_FORM_ID || DATE_LINK_FORM.formId;

/** The route's query id, read where any widget is (the designer, a chat reply). */
export const routeFormId = () => (typeof window === "undefined" ? null : new URLSearchParams(window.location.search).get("id"));

export const isLinkedForm = (formId: string | null | undefined) => !!formId && formId === LINKED_FORM_ID;

/** The two birth date fields of the linked form are read-only inputs: a date is picked, never typed. */
export const isReadOnlyBirthDate = (formId: string | null | undefined, widgetId: string) =>
  isLinkedForm(formId) && (widgetId === DATE_LINK_FORM.policyholderBirthId || widgetId === DATE_LINK_FORM.insuredBirthId);

/** The values a date change sets in the linked form: itself, and for a birth date its three dependents. */
export function linkDate(formId: string | null | undefined, widgetId: string, value: unknown): Record<string, unknown> {
  const changes: Record<string, unknown> = { [widgetId]: value };
  if (!isLinkedForm(formId)) return changes;
  const dependents =
    widgetId === DATE_LINK_FORM.insuredBirthId
      ? DATE_LINK_FORM.insuredDependentIds
      : widgetId === DATE_LINK_FORM.policyholderBirthId
        ? DATE_LINK_FORM.policyholderDependentIds
        : [];
  for (const id of dependents) changes[id] = value;
  return changes;
}
