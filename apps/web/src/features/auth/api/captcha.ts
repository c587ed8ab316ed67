import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export type Captcha = { captchaEnabled: boolean; uuid: string; img: string };
export const fetchCaptcha = () => http.get<Captcha>(`${API.agent}/api/loginImage/captchaImage`);
export const useCaptcha = () =>
  useQuery({ queryKey: ["captcha"], queryFn: fetchCaptcha, staleTime: 0, gcTime: 0, refetchOnWindowFocus: false });
