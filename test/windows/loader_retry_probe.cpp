//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Ends the way a program does that Wine's loader failed to start, once: cmake/wine-run.sh,
// the MinGW toolchain's emulator, must run it again.
//   loader_retry_probe <marker file>
// Without the marker: creates it and ends the process with STATUS_DLL_INIT_FAILED, having
// printed nothing. With it: removes it, says so and exits 0.

#include <windows.h>

#include <cstdio>

int main(int argc, char** argv)
{
  if (argc != 2)
  {
    std::fprintf(stderr, "usage: loader_retry_probe <marker file>\n");
    return 2;
  }
  if (std::FILE* marker = std::fopen(argv[1], "r"))
  {
    std::fclose(marker);
    std::remove(argv[1]);
    std::printf("started again after the loader's failure\n");
    return 0;
  }
  std::FILE* marker = std::fopen(argv[1], "w");
  if (!marker)
  {
    std::fprintf(stderr, "loader_retry_probe: cannot create %s\n", argv[1]);
    return 2;
  }
  std::fclose(marker);
  ::ExitProcess(0xC0000142); // STATUS_DLL_INIT_FAILED
}
