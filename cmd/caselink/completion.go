package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// completionCommand prints a shell completion script made from the
// commands and flags themselves, so it never goes stale.
func completionCommand(env *env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "bash|zsh|fish",
		Description: `Completes commands and their flags; file names elsewhere.

Examples:
   source <(caselink completion bash)                       (add to ~/.bashrc)
   caselink completion zsh > "${fpath[1]}/_caselink"        (zsh, then restart the shell)
   caselink completion fish > ~/.config/fish/completions/caselink.fish`,
		Action: func(c *cli.Context) error {
			shell := c.Args().First()
			if c.Args().Len() != 1 {
				return usagef("give one shell: bash, zsh or fish")
			}
			switch shell {
			case "bash":
				fmt.Fprint(env.stdout, bashCompletion(c.App))
			case "zsh":
				fmt.Fprint(env.stdout, "#compdef caselink\nautoload -U +X bashcompinit && bashcompinit\n"+bashCompletion(c.App))
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				fmt.Fprint(env.stdout, s)
			default:
				if s := nearestName(shell, []string{"bash", "zsh", "fish"}); s != "" {
					return usagef("unknown shell %q: did you mean %s?", shell, s)
				}
				return usagef("unknown shell %q: want bash, zsh or fish", shell)
			}
			return nil
		},
	}
}

// bashCompletion returns a bash completion function for the app's commands
// and each command's flags.
func bashCompletion(app *cli.App) string {
	var b strings.Builder
	var cmds []string
	b.WriteString("# caselink completion for bash (caselink completion bash)\n_caselink() {\n")
	b.WriteString("  local cur=${COMP_WORDS[COMP_CWORD]} opts\n  case ${COMP_WORDS[1]} in\n")
	for _, c := range app.Commands {
		if c.Hidden {
			continue
		}
		cmds = append(cmds, c.Names()...)
		var flags []string
		for _, f := range c.Flags {
			for _, n := range f.Names() {
				if len(n) == 1 {
					flags = append(flags, "-"+n)
				} else {
					flags = append(flags, "--"+n)
				}
			}
		}
		flags = append(flags, "--help")
		slices.Sort(flags)
		fmt.Fprintf(&b, "    %s) opts=%q ;;\n", strings.Join(c.Names(), "|"), strings.Join(slices.Compact(flags), " "))
	}
	b.WriteString("  esac\n")
	fmt.Fprintf(&b, "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n", strings.Join(append(cmds, "--help", "--version"), " "))
	b.WriteString("  elif [[ $cur == -* ]]; then\n    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n  fi\n}\n")
	b.WriteString("complete -o default -F _caselink caselink\n")
	return b.String()
}
