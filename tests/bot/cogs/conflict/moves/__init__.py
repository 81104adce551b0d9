"""Tests of the Conflict move service (``bot.moves``) against both databases."""
