# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# asio_notify_reactor_configuration_check: an object library whose test case checks that a
# run works on the configuration its registration names in BOOST_ASIO_NOTIFY_TEST_RUNS_ON
# (reactor_configuration_check.cpp). Included by each suite folder that registers runs per
# driver or backend.
include_guard(GLOBAL)

add_library(asio_notify_reactor_configuration_check OBJECT
  ${CMAKE_CURRENT_LIST_DIR}/reactor_configuration_check.cpp)
target_link_libraries(asio_notify_reactor_configuration_check PUBLIC asio_notify_test_main)
asio_notify_warnings(asio_notify_reactor_configuration_check)
