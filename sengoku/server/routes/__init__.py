"""The HTTP and WebSocket routes, one module per resource: games, matches, records, the
WebSocket; ``errors`` makes every error the API's JSON shape. ``sengoku.server.app`` builds the
application from them."""
