"""The Conflict move service: a move from the click to its reply (``service``), its one
transaction body (``transaction``), the answers it composes (``answers``) and whose turn it is
(``turns``)."""
