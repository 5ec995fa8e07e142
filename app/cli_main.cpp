// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>

#include "cli.h"

int main(int argc, char** argv) {
    cplab::installCliSignalHandling();
    std::ios::sync_with_stdio(false);
    const std::vector<std::string> args(argv + 1, argv + argc);
    return cplab::runCli(args, std::cout, std::cerr);
}
