// SPDX-License-Identifier: GPL-3.0-or-later
// The main of every test group (test_group.h): runs one registered unit.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "test_group.h"

namespace cplab::testing {
namespace {

struct Unit {
    std::string name;
    UnitMain main;
};

std::vector<Unit>& units() {
    static std::vector<Unit> all;
    return all;
}

// ".../test_smo.cpp" -> "smo"
std::string unitName(const char* sourcePath) {
    std::string name = sourcePath;
    if (const auto slash = name.find_last_of("/\\"); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (name.rfind("test_", 0) == 0) name.erase(0, 5);
    if (const auto dot = name.rfind('.'); dot != std::string::npos) name.erase(dot);
    return name;
}

void listUnits(const char* program) {
    std::fprintf(stderr, "usage: %s UNIT [Qt Test arguments]\nunits:", program);
    for (const Unit& unit : units())
        std::fprintf(stderr, " %s", unit.name.c_str());
    std::fprintf(stderr, "\n");
}

}  // namespace

bool registerUnit(const char* sourcePath, UnitMain main) {
    units().push_back({unitName(sourcePath), main});
    return true;
}

}  // namespace cplab::testing

int main(int argc, char* argv[]) {
    using cplab::testing::units;
    std::sort(units().begin(), units().end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    if (argc < 2 || argv[1][0] == '-') {
        cplab::testing::listUnits(argv[0]);
        return 2;
    }
    const auto unit = std::find_if(units().begin(), units().end(),
                                   [&](const auto& u) { return u.name == argv[1]; });
    if (unit == units().end()) {
        std::fprintf(stderr, "%s: no unit named '%s'\n", argv[0], argv[1]);
        cplab::testing::listUnits(argv[0]);
        return 2;
    }
    // The unit sees the program's name and the arguments after its own name.
    std::vector<char*> args{argv[0]};
    args.insert(args.end(), argv + 2, argv + argc);
    args.push_back(nullptr);
    return unit->main(argc - 1, args.data());
}
