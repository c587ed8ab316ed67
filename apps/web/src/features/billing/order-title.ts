import type { TFunction } from "i18next";

/**
 * An order's title as people read it. The server names a membership order "<plan> × <months>"
 * ("个人旗舰版 × 3"), where the bare number reads as a quantity: the months are said as months.
 * Anything else (top-ups, titles written otherwise) is shown as it is.
 */
export function orderTitleText(title: string, t: TFunction, monthNum?: number | null): string {
  const m = /^(.+) × (\d+)$/.exec(title);
  if (!m) return title;
  const months = Number(m[2]);
  if (monthNum != null && monthNum !== months) return title;
  return t("billing.orderTitle", { name: m[1], duration: t("billing.months", { count: months }) });
}
