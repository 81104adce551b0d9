"""Tests of the Conflict move service (``bot.cogs.conflict.transaction``) against both databases."""
