"""Rolling dice outside a Conflict: forming a pool from a sheet, and the roll log's records."""
