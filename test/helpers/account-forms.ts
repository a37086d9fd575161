/** What a form post to the pages answered, and the session cookie it set, if any. */
export interface FormAnswer {
  status: number;
  html: string;
  location: string | null;
  session: string | null;
}

function cookieValue(headers: Headers, name: string): string | null {
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(";");
    const [key, value] = pair.split("=");
    if (key === name) return value;
  }
  return null;
}

/** The value of the first hidden `_csrf` field of a page. */
export function formTokenOf(html: string): string {
  return /name="_csrf" value="([^"]*)"/.exec(html)?.[1] ?? "";
}

/**
 * Posts the sign-in or sign-up form as a program would, with HTTP alone: loads the form first (for its
 * pre-session cookie and form token, each good for one post), then posts `fields` with them.
 */
export async function postPreSessionForm(
  platformUrl: string,
  path: "/platform/sign-in" | "/platform/sign-up",
  fields: Record<string, string>,
  loadFrom: string = path,
  headers: Record<string, string> = {},
): Promise<FormAnswer> {
  const page = await fetch(`${platformUrl}${loadFrom}`);
  const html = await page.text();
  const preSession = cookieValue(page.headers, "apiary_pre_session");
  return postForm(
    platformUrl,
    path,
    { _csrf: formTokenOf(html), ...fields },
    `apiary_pre_session=${preSession}`,
    headers,
  );
}

/** Posts a form with a cookie header; never follows the redirect. */
export async function postForm(
  platformUrl: string,
  path: string,
  fields: Record<string, string>,
  cookie: string,
  headers: Record<string, string> = {},
): Promise<FormAnswer> {
  const res = await fetch(`${platformUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: res.status,
    html: await res.text(),
    location: res.headers.get("location"),
    session: cookieValue(res.headers, "apiary_session"),
  };
}

/** A page as a session cookie sees it. */
export async function getWithSession(platformUrl: string, path: string, session: string): Promise<FormAnswer> {
  const res = await fetch(`${platformUrl}${path}`, {
    redirect: "manual",
    headers: { cookie: `apiary_session=${session}` },
  });
  return { status: res.status, html: await res.text(), location: res.headers.get("location"), session: null };
}
