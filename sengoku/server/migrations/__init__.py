"""Alembic migrations of the server's database (run by ``sengoku.server.db.migrate``)."""
