//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The one translation unit that compiles Boost.Test's header-only runner; every test
// executable links it and includes <boost/test/unit_test.hpp> only.
#define BOOST_TEST_MODULE boost_asio_notify
#include <boost/test/included/unit_test.hpp>
