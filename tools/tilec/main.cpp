//===- main.cpp - main() of tilec and of user generator programs ----------===//

#include "tilec/Driver/Driver.h"

int main(int argc, char **argv) { return tilec::driverMain(argc, argv); }
