"""One HTTP client for the browser tests' calls to the server's API.

httpx's top-level functions (``httpx.get``, ``httpx.post``) build a client, with its TLS
context, for every call: 52 ms each on the 2-core machine, nine tenths of the time a test
spent making a Gunshi position through the API (``labels_setup.play_until``: two calls a
choice). This client is made once per process and, like those functions, keeps no cookie
between calls (its jar's policy accepts none), so a test's calls stay a stranger's.
"""

from __future__ import annotations

import atexit
from http.cookiejar import CookieJar, DefaultCookiePolicy

import httpx

from tests.waiting import GENEROUS

API = httpx.Client(
    timeout=GENEROUS, cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
)
atexit.register(API.close)
