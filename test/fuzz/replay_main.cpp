//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A main for the fuzz target without libFuzzer: runs the built-in inputs (ctest), or the
// files given as arguments (e.g. a crash artifact of .ci/fuzz.sh, with any compiler). A
// contract violation aborts with the steps that led to it.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

namespace port_fuzz {
std::vector<std::vector<std::uint8_t>> builtin_inputs(); // port_fuzz.cpp
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv)
{
  std::vector<std::vector<std::uint8_t>> inputs;
  if (argc == 1)
    inputs = port_fuzz::builtin_inputs();
  for (int i = 1; i < argc; ++i)
  {
    std::ifstream f(argv[i], std::ios::binary);
    if (!f)
    {
      std::fprintf(stderr, "cannot read %s\n", argv[i]);
      return 1;
    }
    inputs.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  for (const std::vector<std::uint8_t>& in : inputs)
    LLVMFuzzerTestOneInput(in.data(), in.size());
  std::printf("%zu inputs ran without a contract violation\n", inputs.size());
  return 0;
}
