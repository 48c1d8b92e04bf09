//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// libFuzzer target for the port: the input is read as a program of port operations
// (registrations, socket state changes, closes with descriptor reuse, user packets; see
// test/model/port_harness.hpp), run on two real ports and three real sockets, and checked
// against the reference model of the contract (test/model/contract_model.hpp) after every
// step. A violation prints the steps and aborts, so libFuzzer keeps the input.
//
// Built with -fsanitize=fuzzer by .ci/fuzz.sh (Clang); with any compiler, port_fuzz_replay
// (replay_main.cpp) runs the same function on the built-in inputs under ctest, or on files.
#include "../model/port_harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace port_fuzz {

// The built-in inputs: ctest replays them and .ci/fuzz.sh writes them out as the fuzzer's
// seed corpus, so no binary corpus is kept in the repository. Pseudo-random programs of
// 64 to 960 bytes (up to 64 steps each), enough of them that the replay alone catches either
// bug the model test found in the epoll backend (dc49db6) if it came back; then degenerate
// ones.
std::vector<std::vector<std::uint8_t>> builtin_inputs()
{
  std::vector<std::vector<std::uint8_t>> inputs;
  for (std::uint64_t seed = 1; seed <= 512; ++seed)
  {
    port_model::prng_source src(seed);
    std::vector<std::uint8_t> in(64 + (seed % 8) * 128);
    for (std::uint8_t& b : in)
      b = static_cast<std::uint8_t>(src.next(256));
    inputs.push_back(std::move(in));
  }
  inputs.emplace_back();
  inputs.emplace_back(512, std::uint8_t(0));
  inputs.emplace_back(512, std::uint8_t(0xff));
  return inputs;
}

} // namespace port_fuzz

namespace {

constexpr int fuzz_slots = 3;
constexpr std::size_t fuzz_max_steps = 64;

// BOOST_ASIO_NOTIFY_FUZZ_WRITE_CORPUS=<dir>: write the built-in inputs there as the seed corpus.
void write_corpus(const char* dir)
{
  int i = 0;
  for (const auto& in : port_fuzz::builtin_inputs())
  {
    const std::string path = std::string(dir) + "/seed-" + std::to_string(i++);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(in.data(), 1, in.size(), f) != in.size() || std::fclose(f) != 0)
    {
      std::fprintf(stderr, "port_fuzz: cannot write %s\n", path.c_str());
      std::exit(1);
    }
  }
  std::fprintf(stderr, "port_fuzz: wrote %d seed inputs to %s\n", i, dir);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
  if (const char* dir = std::getenv("BOOST_ASIO_NOTIFY_FUZZ_WRITE_CORPUS"))
  {
    write_corpus(dir);
    std::exit(0);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  port_model::byte_source src(data, size);
  const port_model::run_result r = port_model::run_generated(src, fuzz_max_steps, fuzz_slots);
  if (!r.ok)
  {
    std::fprintf(stderr, "port contract violation at step #%zu: %s\nsteps:\n%s", r.failed_step,
                 r.violation.c_str(), port_model::format_steps(r).c_str());
    std::abort();
  }
  return 0;
}
