//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The one translation unit that compiles Boost.Test's header-only runner; every test
// executable links it and includes <boost/test/unit_test.hpp> only.
//
// A run on the adversarial port (BOOST_ASIO_NOTIFY_ADVERSARY set) also checks, once every
// case has run, that each adversity it enabled occurred at least once: a run that never met
// its adversary proves nothing. A run that belongs to a group of runs checked together
// (BOOST_ASIO_NOTIFY_TEST_ADVERSITY_COUNTS names its file: test/check_adversities.cmake) writes its
// counts there instead.
#define BOOST_TEST_MODULE boost_asio_notify
#include <boost/test/included/unit_test.hpp>

#include <boost/asio_notify/adversary.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>

#if defined(BOOST_ASIO_NOTIFY_TEST_TSAN_SUPPRESSIONS)
// ThreadSanitizer asks for its default options before main: every suite of a TSan build reads
// test/tsan.supp (which says what is suppressed and why) without TSAN_OPTIONS.
extern "C" const char* __tsan_default_options();
extern "C" const char* __tsan_default_options()
{
  return "suppressions=" BOOST_ASIO_NOTIFY_TEST_TSAN_SUPPRESSIONS;
}
#endif

namespace {

namespace an = boost::asio_notify;

struct adversary_check
{
  adversary_check()
  {
    const an::adversary_options o = an::adversary_from_environment();
    if (o.kinds != an::adversity::none)
      std::cerr << "adversarial port: " << std::getenv(an::adversary_variable) << " (seed "
                << o.seed << ")\n";
  }

  ~adversary_check()
  {
    const an::adversary_options o = an::adversary_from_environment();
    const an::adversity_counts counts = an::adversity_statistics();
    if (const char* file = std::getenv("BOOST_ASIO_NOTIFY_TEST_ADVERSITY_COUNTS"))
    {
      write_counts(file, o, counts);
      return;
    }
    for (std::size_t i = 0; i < an::adversity_kinds; ++i)
    {
      const auto kind = static_cast<an::adversity>(1u << i);
      if (has_any(o.kinds, kind))
        BOOST_TEST_MESSAGE("adversity " << an::to_string(kind) << ": " << counts[i]);
      if (has_any(o.kinds, kind) && counts[i] == 0)
        BOOST_ERROR("adversity " << an::to_string(kind) << " was enabled and never occurred (seed "
                                 << o.seed << ")");
    }
  }

  // One line per enabled kind: "<kind> <count>".
  static void write_counts(const char* file, const an::adversary_options& o,
                           const an::adversity_counts& counts)
  {
    std::ofstream out(file);
    for (std::size_t i = 0; i < an::adversity_kinds; ++i)
    {
      const auto kind = static_cast<an::adversity>(1u << i);
      if (has_any(o.kinds, kind))
        out << an::to_string(kind) << ' ' << counts[i] << '\n';
    }
    if (!out)
      BOOST_ERROR("cannot write the adversity counts to " << file);
  }
};

} // namespace

BOOST_TEST_GLOBAL_FIXTURE(adversary_check);
