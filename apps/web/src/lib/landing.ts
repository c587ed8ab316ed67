/** Where a signed-in user lands: /home for the special home user (the server says who), else /index. */
export function landingPath(user: { isHome?: boolean } | undefined) {
  return user?.isHome ? "/home" : "/index";
}

/** The login page's `redirect` back, when it is a path of this app (never another site). */
export function safeRedirect(search: string) {
  const redirect = new URLSearchParams(search).get("redirect");
  return redirect?.startsWith("/") && !redirect.startsWith("//") && !redirect.startsWith("/\\") ? redirect : null;
}
