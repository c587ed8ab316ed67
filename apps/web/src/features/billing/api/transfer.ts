import { API, http } from "../../../lib/http";

export const submitTransfer = (form: { companyName: string; contacts: string; img: File }) => {
  const data = new FormData();
  data.set("companyName", form.companyName);
  data.set("contacts", form.contacts);
  data.set("img", form.img);
  return http.post<null>(`${API.agent}/api/order/transfer`, data);
};
