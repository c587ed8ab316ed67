/** Where a signed-in user lands: /home for the configured special username, else /index. */
export function landingPath(username: string | undefined, homeUsername: string | undefined) {
  return username && homeUsername && username === homeUsername ? "/home" : "/index";
}

/** The login page's `redirect` back, when it is a path of this app (never another site). */
export function safeRedirect(search: string) {
  const redirect = new URLSearchParams(search).get("redirect");
  return redirect?.startsWith("/") && !redirect.startsWith("//") && !redirect.startsWith("/\\") ? redirect : null;
}
