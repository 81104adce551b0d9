"""Background workers: the status boards, the outbox deliverer, catching up at start, upkeep,
and the pace and bounds they keep."""
