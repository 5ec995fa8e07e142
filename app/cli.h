// cplab-cli, the scriptable twin of the GUI (DESIGN.md, "Command line"):
//
//   cplab-cli list [--json]
//   cplab-cli run SOLVER (--problem NAME | --data FILE [--test FILE]) [--set key=value ...]
//                 [--trace out.csv] [--json] [--quiet]
//   cplab-cli demo NAME [--json] [--trace-prefix PREFIX] [--quiet]
//
// Exit status: 0 on convergence or a reached limit, 1 on invalid input or options (message
// on stderr), 2 on numerical failure.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace cplab {

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace cplab
