"""MQ message-route semantics: activities, trace-route messages, routes, display, the CLI."""
