async function (req) {
  // The browser's own request, as the page would make it: the page's
  // origin, cookies, connection, TLS and HTTP/2. Run in waymark's isolated
  // world, so the page's fetch (wrapped, replaced) is not the one called.
  const init = {
    method: req.method,
    headers: req.headers || {},
    credentials: req.credentials,
    // A redirect is not followed: each hop must pass the URL policy, and
    // only the caller can check the next one.
    redirect: 'manual',
    cache: 'no-store',
  };
  if (req.body !== '') init.body = req.body;
  let timer;
  if (req.timeout_ms > 0) {
    const ctl = new AbortController();
    init.signal = ctl.signal;
    timer = setTimeout(() => ctl.abort(), req.timeout_ms);
  }
  let res;
  try {
    res = await fetch(req.url, init);
  } catch (e) {
    clearTimeout(timer);
    return { error: e && e.name === 'AbortError' ? 'timeout' : String(e) };
  }
  if (res.type === 'opaqueredirect') {
    clearTimeout(timer);
    return { redirected: true };
  }
  const headers = [];
  res.headers.forEach((value, name) => headers.push({ name, value }));
  let body;
  try {
    const buf = await res.arrayBuffer();
    if (buf.byteLength > req.max_bytes) {
      return { status: res.status, too_big: buf.byteLength };
    }
    if (req.base64) {
      // Bytes as sent (a gzipped sitemap): base64 in chunks, as
      // String.fromCharCode takes a bounded number of arguments.
      const u8 = new Uint8Array(buf);
      let bin = '';
      for (let i = 0; i < u8.length; i += 0x8000) {
        bin += String.fromCharCode.apply(null, u8.subarray(i, i + 0x8000));
      }
      body = btoa(bin);
    } else {
      body = new TextDecoder().decode(buf);
    }
  } catch (e) {
    return { error: e && e.name === 'AbortError' ? 'timeout' : String(e) };
  } finally {
    clearTimeout(timer);
  }
  return { status: res.status, status_text: res.statusText, url: res.url, type: res.type, headers, body };
}
