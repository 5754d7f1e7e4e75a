"""The Mini App: who a page is (auth: Telegram's signature, game and session tokens), what it shows (view: a
frame), its web server and socket (server), and the page's own files (static/)."""
