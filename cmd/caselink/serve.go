package main

import "github.com/urfave/cli/v2"

func serveCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:   "serve",
		Usage:  "serve a JSON API and a paste-your-symptoms web page",
		Hidden: true,
		Action: func(c *cli.Context) error { return usagef("serve is not built yet") },
	}
}
