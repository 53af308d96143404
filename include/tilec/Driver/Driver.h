//===- Driver.h - the tilec command line, reusable by generators -*- C++ -*-===//

#ifndef TILEC_DRIVER_DRIVER_H
#define TILEC_DRIVER_DRIVER_H

namespace tilec {

/// The whole `tilec` command line over the kernels registered in this
/// program. A generator program (one that registers its own DSL kernels)
/// links `tilec_driver_main`, whose `main` calls this.
int driverMain(int argc, char **argv);

} // namespace tilec

#endif // TILEC_DRIVER_DRIVER_H
