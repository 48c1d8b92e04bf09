//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Where the generator's choices come from: a seeded pseudo-random sequence (the model test)
// or the fuzzer's input bytes.
#ifndef BOOST_ASIO_NOTIFY_TEST_MODEL_CHOICE_SOURCES_HPP
#define BOOST_ASIO_NOTIFY_TEST_MODEL_CHOICE_SOURCES_HPP

#include <cstddef>
#include <cstdint>

namespace port_model {

class source
{
public:
  virtual ~source() = default;
  /// A number in [0, bound), bound <= 256.
  virtual unsigned next(unsigned bound) = 0;
  virtual bool exhausted() const = 0;
};

/// splitmix64: the same sequence on every compiler and standard library.
class prng_source : public source
{
public:
  explicit prng_source(std::uint64_t seed) : state_(seed) {}
  unsigned next(unsigned bound) override
  {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return bound ? static_cast<unsigned>(z % bound) : 0;
  }
  bool exhausted() const override { return false; }

private:
  std::uint64_t state_;
};

/// Reads the choices from bytes (the fuzzer's input), one byte each.
class byte_source : public source
{
public:
  byte_source(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  unsigned next(unsigned bound) override
  {
    if (pos_ >= size_)
    {
      exhausted_ = true;
      return 0;
    }
    const unsigned b = data_[pos_++];
    return bound ? b % bound : 0;
  }
  bool exhausted() const override { return exhausted_; }

private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  bool exhausted_ = false;
};

} // namespace port_model

#endif
