import { API, http } from "../../../lib/http";

/** The speech-to-text call: a 16 kHz WAV recording in, text out. */
export function speechToText(wav: Blob) {
  const form = new FormData();
  form.append("file", wav, "speech.wav");
  return http.post<{ text: string }>(`${API.runtime}/speech_to_text`, form, { keepOnNavigate: true });
}
