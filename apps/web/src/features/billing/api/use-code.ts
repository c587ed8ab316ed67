import { API, http } from "../../../lib/http";

/** Silent: the dialog shows the server's msg itself. */
export const redeemBenefitCode = (benefitCode: string) =>
  http.post<{ grant: "LEVEL" | "AMOUNT" }>(`${API.agent}/api/benefit/useCode`, { benefitCode }, { silent: true });
