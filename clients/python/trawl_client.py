"""trawl's Python client: standard library only (urllib), Python 3.8+.

Submits, polls with backoff, honours Retry-After, reads a Failure (a 204 with X-Request-Status)
without raising, and pages POST /businesses.

    from trawl_client import TrawlClient
    trawl = TrawlClient()    # api_key: TRAWL_API_KEY, base_url: TRAWL_URL (else http://127.0.0.1:8080)
    r = trawl.run("/reverse-geocoding", ["40.7580 -73.9855"], on_progress=print)
    if r["status"] == "Success":
        print(r["data"][0][0]["city"])
"""
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["TrawlClient", "TrawlError"]


class TrawlError(Exception):
    """The API refused or failed a call: `status` is the HTTP status, `body` the parsed error body."""

    def __init__(self, status, message, body=None):
        super().__init__(message)
        self.status = status
        self.body = body


def _errors_of(body):
    """`errors` (decision 25), or the older `failed_queries` whose error is a plain message."""
    items = body.get("errors", body.get("failed_queries")) or []
    out = []
    for e in items:
        err = e.get("error")
        out.append({"query": e.get("query"), "error": err if isinstance(err, dict) else {"type": "unknown", "message": str(err)}})
    return out


class TrawlClient:
    def __init__(self, api_key=None, base_url=None, retries=8, timeout=60):
        # The same variables as the command-line client: TRAWL_API_KEY and TRAWL_URL.
        self.api_key = api_key if api_key is not None else os.environ.get("TRAWL_API_KEY", "")
        self.base_url = (base_url or os.environ.get("TRAWL_URL") or "http://127.0.0.1:8080").rstrip("/")
        self.retries = retries
        self.timeout = timeout

    # -- one call ---------------------------------------------------------------------------
    def call(self, method, path, query=None, body=None):
        """One call with the key; 429 and 503 wait for Retry-After and are retried; other errors raise
        TrawlError. Returns (status, headers, bytes)."""
        pairs = []
        for k, v in (query or {}).items():
            if v is None:
                continue
            for x in v if isinstance(v, (list, tuple)) else [v]:
                pairs.append((k, "true" if x is True else "false" if x is False else str(x)))
        url = self.base_url + path + ("?" + urllib.parse.urlencode(pairs) if pairs else "")
        data = json.dumps(body).encode() if body is not None else None
        headers = {"X-API-KEY": self.api_key, "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        attempt = 0
        while True:
            req = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as res:
                    return res.status, res.headers, res.read()
            except urllib.error.HTTPError as e:
                raw = e.read()
                if e.code in (429, 503) and attempt < self.retries:
                    after = e.headers.get("Retry-After")
                    try:
                        wait = float(after)
                    except (TypeError, ValueError):
                        wait = 0.5 * 2 ** attempt
                    time.sleep(wait if wait > 0 else 0.5 * 2 ** attempt)
                    attempt += 1
                    continue
                try:
                    parsed = json.loads(raw)
                except ValueError:
                    parsed = raw.decode("utf-8", "replace")
                message = parsed.get("errorMessage") if isinstance(parsed, dict) else None
                raise TrawlError(e.code, message or "%d %s" % (e.code, e.reason), parsed) from None

    def json(self, method, path, query=None, body=None):
        _, _, raw = self.call(method, path, query, body)
        return json.loads(raw)

    # -- requests ---------------------------------------------------------------------------
    def submit(self, endpoint, queries, params=None):
        """Submits asynchronously; returns {id, status, results_location}."""
        q = dict(params or {})
        q.update({"query": list(queries), "async": True})
        return self.json("GET", endpoint, q)

    def state(self, request_id, flat=None, convert_file_result=None):
        """The request now: Pending (with progress), Success (data, errors), or Failure (a 204, no body)."""
        status, headers, raw = self.call("GET", "/requests/" + urllib.parse.quote(request_id, safe=""),
                                         {"flat": flat, "convertFileResult": convert_file_result})
        if status == 204:
            return {"id": request_id, "status": "Failure", "data": [], "errors": [], "reason": headers.get("X-Request-Error")}
        body = json.loads(raw)
        if body.get("status") == "Success":
            return {"id": request_id, "status": "Success", "data": body.get("data", []), "errors": _errors_of(body)}
        if body.get("status") == "Failure":
            return {"id": request_id, "status": "Failure", "data": [], "errors": _errors_of(body), "reason": headers.get("X-Request-Error")}
        return {"id": request_id, "status": "Pending", "progress": body.get("progress"), "expired": bool(body.get("expired"))}

    def wait(self, request_id, on_progress=None, poll=0.25, max_poll=5.0):
        """Polls until the request ends; the interval grows by half each poll and resets when progress moves.
        An expired result (older than 4 hours) raises TrawlError(410)."""
        started = time.monotonic()
        delay, last_done = poll, -1
        while True:
            s = self.state(request_id)
            if s["status"] != "Pending":
                if s["status"] == "Success" and on_progress:
                    n = len(s["data"])
                    records = sum(len(q) if isinstance(q, list) else 1 for q in s["data"])
                    on_progress({"queries_total": n, "queries_done": n, "records": records, "elapsed": time.monotonic() - started})
                return s
            if s["expired"]:
                raise TrawlError(410, "request %s ended more than 4 hours ago: its results expired" % request_id)
            p = s.get("progress")
            if p:
                if on_progress:
                    on_progress(dict(p, elapsed=time.monotonic() - started))
                if p["queries_done"] != last_done:
                    last_done, delay = p["queries_done"], poll
            time.sleep(delay)
            delay = min(delay * 1.5, max_poll)

    def run(self, endpoint, queries, params=None, on_progress=None):
        """Submits and waits: run('/reverse-geocoding', ['40.7 -74.0'], on_progress=print)."""
        return self.wait(self.submit(endpoint, queries, params)["id"], on_progress=on_progress)

    def cancel(self, request_id):
        """Terminates a request (decision 14); returns the server's confirmation text."""
        return self.call("DELETE", "/requests/" + urllib.parse.quote(request_id, safe=""))[2].decode()

    def requests(self, type="running", skip=0, page_size=20):
        return self.json("GET", "/requests", {"type": type, "skip": skip, "pageSize": page_size})

    # -- account ----------------------------------------------------------------------------
    def balance(self):
        return self.json("GET", "/profile/balance")

    def tasks(self, query=None, last_id=None, page_size=10):
        return self.json("GET", "/tasks", {"query": query, "lastId": last_id, "pageSize": page_size})

    def create_task(self, body):
        return self.json("POST", "/tasks", body=body)

    def task_file(self, request_id, timeout=60):
        """The bytes of a UI task's file, once written (its link appears when the task ends)."""
        end, delay = time.monotonic() + timeout, 0.1
        while True:
            s = self.state(request_id, convert_file_result=False)
            link = s["data"][0] if s["status"] == "Success" and s["data"] else None
            if isinstance(link, str):
                return self.call("GET", urllib.parse.urlsplit(link).path)[2]
            if s["status"] == "Failure":
                raise TrawlError(204, "request %s ended in Failure" % request_id)
            if time.monotonic() > end:
                raise TrawlError(504, "request %s has no file yet" % request_id)
            time.sleep(delay)
            delay = min(delay * 2, 2.0)

    def keys(self):
        return self.json("GET", "/profile/keys")

    def create_key(self):
        return self.json("POST", "/profile/keys")

    def revoke_key(self, key_id):
        return self.json("DELETE", "/profile/keys/" + urllib.parse.quote(key_id, safe=""))

    def usage(self, days=30):
        return self.json("GET", "/profile/usage", {"days": days})

    def webhook_calls(self):
        return self.json("GET", "/webhook-calls")

    def business(self, business_id, fields=None):
        """One business by its os_id (or a scraped place's place_id); a 404 raises TrawlError."""
        query = {"fields": ",".join(fields)} if fields else None
        return self.json("GET", "/businesses/" + urllib.parse.quote(business_id, safe=""), query)

    def businesses(self, body=None):
        """Every business matching the body, page after page (cursor pagination)."""
        body = dict(body or {})
        cursor = body.get("cursor")
        while True:
            page = self.json("POST", "/businesses", body=dict(body, cursor=cursor))
            for item in page.get("items", []):
                yield item
            cursor = page.get("next_cursor") if page.get("has_more") else None
            if not cursor:
                return
