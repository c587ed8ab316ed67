import { isEmail, isPhone, PASSWORD_MIN } from "@agentfair/contracts";
import type { TFunction } from "i18next";

export const contactRule = (t: TFunction) => ({
  validator: (_: unknown, v?: string) =>
    v && (isEmail(v.trim()) || isPhone(v.trim())) ? Promise.resolve() : Promise.reject(new Error(t("auth.contactRequired"))),
});

export const passwordRules = (t: TFunction) => [
  { required: true, message: t("auth.passwordRequired") },
  { min: PASSWORD_MIN, message: t("auth.passwordRule") },
];
