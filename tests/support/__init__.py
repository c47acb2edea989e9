"""Helpers the tests share: IBM's dspmqrte examples, a simulator-backed fake pymqi, strategies."""
