#include <boost/asio_notify/port.hpp>
#include <boost/test/unit_test.hpp>
#include <sys/socket.h>
#include <unistd.h>

namespace an = boost::asio_notify;

BOOST_AUTO_TEST_CASE(smoke)
{
  an::port p;
  int sv[2];
  BOOST_REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  int key = 0;
  an::registration r;
  r.socket = sv[0];
  r.key = &key;
  r.filter = an::events::in | an::events::hangup;
  r.triggers = an::trigger::level | an::trigger::oneshot;
  BOOST_TEST(!p.apply(r));
  an::packet pk[4];
  BOOST_TEST(p.dequeue(pk, std::chrono::milliseconds(0)) == 0u);
  BOOST_TEST(::write(sv[1], "x", 1) == 1);
  BOOST_TEST(p.dequeue(pk, std::chrono::milliseconds(1000)) == 1u);
  BOOST_TEST(pk[0].key == &key);
  BOOST_TEST((pk[0].events == an::events::in));
  BOOST_TEST(p.dequeue(pk, std::chrono::milliseconds(10)) == 0u); // one-shot
  r.operation = an::operation::remove;
  BOOST_TEST(!p.apply(r));
  BOOST_TEST(p.dequeue(pk, an::port::infinite) == 1u);
  BOOST_TEST((pk[0].events == an::events::remove));
  ::close(sv[0]);
  ::close(sv[1]);
}
