"""End-to-end checks of trawl_client against running servers (started by test/clients.test.ts):
TRAWL_URL/TRAWL_API_KEY is a real `trawl serve`; TRAWL_TEST_URL/TRAWL_TEST_KEY serves the test
adapter, whose queries say how they end. Run: python3 -m unittest test_trawl_client -v
"""
import http.server
import json
import os
import threading
import time
import unittest

from trawl_client import TrawlClient, TrawlError

REAL = TrawlClient(os.environ.get("TRAWL_API_KEY", ""), os.environ.get("TRAWL_URL", "http://127.0.0.1:8080"))
FAKE = TrawlClient(os.environ.get("TRAWL_TEST_KEY", ""), os.environ.get("TRAWL_TEST_URL", "http://127.0.0.1:8081"))


class Real(unittest.TestCase):
    def test_run_200_queries_with_progress(self):
        seen = []
        queries = ["%.4f %.4f" % (40 + i / 1000, -74 + i / 1000) for i in range(200)]
        r = REAL.run("/reverse-geocoding", queries, on_progress=seen.append)
        self.assertEqual(r["status"], "Success")
        self.assertEqual(len(r["data"]), 200)
        self.assertEqual(r["data"][0][0]["country_code"], "US")
        self.assertEqual(r["errors"], [])
        done = [p["queries_done"] for p in seen]
        self.assertEqual(done, sorted(done), "progress never goes back")
        self.assertEqual(seen[-1]["queries_done"], 200)
        self.assertEqual(seen[-1]["records"], 200)

    def test_params_and_task_file(self):
        r = REAL.run("/reverse-geocoding", ["48.8584,2.2945"], {"fields": "query,city"})
        self.assertEqual(r["data"], [[{"query": "48.8584,2.2945", "city": "Paris"}]])
        sub = REAL.submit("/directory-phones", ["+12125551234"], {"format": "csv"})
        text = REAL.task_file(sub["id"]).decode("utf-8-sig")
        self.assertTrue(text.startswith('"query"'), text[:80])
        self.assertIn('12125551234', text)  # the CSV writer may guard a leading + against formula injection
        self.assertTrue(any(t["metadata"]["service_name"] == "directory_phones_service" for t in REAL.tasks()["tasks"]))

    def test_account(self):
        b = REAL.balance()
        self.assertEqual(b["account_status"], "valid")
        k = REAL.create_key()
        self.assertTrue(k["api_key"].startswith("trw_"))
        self.assertEqual(TrawlClient(k["api_key"], REAL.base_url).balance()["id"], b["id"])
        self.assertEqual(REAL.revoke_key(k["id"]), {"revoked": k["id"]})
        self.assertTrue(any(x["id"] == k["id"] and x["revoked"] for x in REAL.keys()))
        self.assertEqual(len(REAL.usage(3)["days"]), 3)
        self.assertIsInstance(REAL.webhook_calls(), list)

    def test_errors(self):
        with self.assertRaises(TrawlError) as c:
            TrawlClient("trw_wrong", REAL.base_url).balance()
        self.assertEqual(c.exception.status, 401)
        self.assertTrue(str(c.exception).startswith("401 Unauthorized"))
        with self.assertRaises(TrawlError) as c:
            REAL.submit("/reverse-geocoding", ["not a point"])
        self.assertEqual(c.exception.status, 422)

    def test_businesses_empty_and_unknown_id(self):
        self.assertEqual(list(REAL.businesses({"filters": {"name": "no such business"}, "limit": 2})), [])
        with self.assertRaises(TrawlError) as c:
            REAL.business("bz_000000000000000000000000")
        self.assertEqual(c.exception.status, 404)


class Fake(unittest.TestCase):
    def test_failed_queries_are_named(self):
        r = FAKE.run("/maps/search", ["n=2", "fail"])
        self.assertEqual(r["status"], "Success")
        self.assertEqual(len(r["data"][0]), 2)
        self.assertEqual(r["data"][1], [])
        self.assertEqual([e["query"] for e in r["errors"]], ["fail"])
        self.assertEqual(r["errors"][0]["error"]["type"], "layout_changed")

    def test_failure_is_a_state_not_an_exception(self):
        rid = FAKE.submit("/engine-places-by-domain", ["sleep=20000"])["id"]
        self.assertEqual(FAKE.state(rid)["status"], "Pending")
        self.assertIn(rid, [x["id"] for x in FAKE.requests("running")])
        self.assertEqual(FAKE.cancel(rid), "Request %s terminated" % rid)
        r = FAKE.wait(rid)
        self.assertEqual(r["status"], "Failure")
        self.assertEqual(r["data"], [])


    def test_businesses_found_by_a_search_page_and_read_by_id(self):
        FAKE.run("/maps/search", ["keys=py1,py2,py3"])
        body = {"filters": {"name": "place py"}, "limit": 2}
        for _ in range(100):  # places are captured shortly after the request ends
            items = list(FAKE.businesses(body))
            if len(items) == 3:
                break
            time.sleep(0.1)
        self.assertEqual(sorted(b["name"] for b in items), ["place py1", "place py2", "place py3"])
        self.assertEqual(FAKE.business(items[0]["os_id"], ["name", "os_id"]), {"name": items[0]["name"], "os_id": items[0]["os_id"]})


class RetryAfter(unittest.TestCase):
    def test_429_waits_for_retry_after(self):
        calls = []

        class H(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                calls.append(time.monotonic())
                if len(calls) == 1:
                    self.send_response(429)
                    self.send_header("Retry-After", "1")
                    body = b'{"error": true, "errorMessage": "429 Too Many Requests"}'
                else:
                    self.send_response(200)
                    body = json.dumps({"balance": 1}).encode()
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        srv = http.server.HTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        try:
            c = TrawlClient("k", "http://127.0.0.1:%d" % srv.server_address[1])
            self.assertEqual(c.balance(), {"balance": 1})
            self.assertEqual(len(calls), 2)
            self.assertGreaterEqual(calls[1] - calls[0], 0.95)
        finally:
            srv.shutdown()
            srv.server_close()


if __name__ == "__main__":
    unittest.main()
