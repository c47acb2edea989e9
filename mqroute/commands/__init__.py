"""The subcommands of `mqroute`, one module each.

Every module exposes `add_parser(sub)`, which registers the subcommand with its options and
`set_defaults(func=run)`, and `run(args) -> int`, which returns the exit status. A command
module may import any layer (`pcf`, `traceroute`, `graph`); nothing imports a command, and
commands do not import each other (what several share is in `mqroute.inputs`,
`mqroute.output` and `mqroute.eventinputs`).
"""
