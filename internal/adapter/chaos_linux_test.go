package adapter

import (
	"os"
	"strconv"
)

// leftovers lists processes still carrying p's token, and zombies of ours in its group.
func (p *Process) leftovers() []string {
	var out []string
	self := os.Getpid()
	for pid, pi := range allProcs() {
		if pid == self {
			continue
		}
		if p.hasToken(pid) || pid == p.pid || (pi.pgrp == p.pid && pi.ppid == self) {
			out = append(out, strconv.Itoa(pid)+" "+pi.comm+" "+string(pi.state))
		}
	}
	return out
}
