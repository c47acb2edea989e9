"""The `mqroute` command line: the top layer, above `pcf`, `traceroute` and `graph`.

`mqroute.main` builds the parser from the subcommand modules in `mqroute.commands` (one
module per subcommand) and maps failures to the documented exit statuses (`mqroute.errors`);
`mqroute.inputs` reads every command's inputs (FILE..., MQSC, text) and reports their
problems, `mqroute.eventinputs` reads events for `events`, `show` and `follow`, and
`mqroute.output` holds what several subcommands print. This package may import every other
package of the project; none of them imports it. The library's public faces are `pcf`,
`traceroute` and `graph`; this package holds no analysis of its own.
"""
