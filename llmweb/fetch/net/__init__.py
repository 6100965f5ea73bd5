"""The network: the one room of web_fetch that touches it, and the pure rules it applies.

- :mod:`.transport` — the one module that talks to the network: httpcore's connection pool
  on a backend that connects only to judged addresses, one deadline on every read and write.
- :mod:`.addresses` — which IP addresses the fetcher may connect to (pure).
- :mod:`.rewrite` — URL checks and the rewrites that make a page readable without JavaScript.
- :mod:`.inflate` — Content-Encoding undone under a byte cap, at most two codings.
- :mod:`.header_values` — header values and page-chosen tokens reduced to closed lists.
"""
