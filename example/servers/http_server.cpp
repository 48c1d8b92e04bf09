//
// Copyright (c) 2026 The Boost.AsioNotify authors
// Distributed under the Boost Software License, Version 1.0.
//
// HTTP/1.1 file server on Boost.Beast.
//
//   http_server <port> <doc_root> [threads] [address]
//
// Serves the files under doc_root with GET and HEAD, keeps connections alive as the client
// asks, answers 404 for missing files and 400 for request targets that try to leave
// doc_root. Links (symbolic links) are followed only where they lead to a file inside
// doc_root; files and directories whose names start with '.' (".git", ".env") are never
// served. Port 0 picks a free port, printed as "listening on port N".
//
// Beast's own examples use beast::tcp_stream, which wraps Asio's socket type and so cannot
// wrap ours. Beast's algorithms (http::async_read, async_write) only need an AsyncReadStream /
// AsyncWriteStream, so this server uses the socket directly and a steady_timer per session
// for the time-outs tcp_stream would have given.
//

#include "accept_backoff.hpp"
#include "net.hpp"
#include "timeouts.hpp"

#include <boost/beast/core.hpp>
// Beast's Windows file body (http/impl/file_body_win32.hpp) leaves two offsets of a
// default-constructed body unset until open(), and its defaulted move constructor copies
// them: GCC's optimiser then warns (-Wmaybe-uninitialized) at that line of Beast's, not of
// ours, in Release builds for Windows. Silenced for Beast's header only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/beast/http.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#include <boost/beast/version.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = backend::tcp;
using boost::system::error_code;

// Sent in every response, so that a client can tell which build answered.
std::string const server_name = std::string(BOOST_BEAST_VERSION_STRING) + " on " + backend::name;

// How long a read or a write may wait for the client before the server closes the
// connection (ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT, see timeouts.hpp).
auto const idle_timeout = timeout_from_env("ASIO_NOTIFY_EXAMPLE_IDLE_TIMEOUT", std::chrono::seconds(30));

// ---- what to answer ----------------------------------------------------------------------

beast::string_view mime_type(beast::string_view path)
{
    auto const dot = path.rfind('.');
    auto const ext = dot == beast::string_view::npos ? beast::string_view{} : path.substr(dot);
    auto is = [&](beast::string_view e) { return beast::iequals(ext, e); };
    if(is(".htm") || is(".html")) return "text/html";
    if(is(".css"))  return "text/css";
    if(is(".txt"))  return "text/plain";
    if(is(".js"))   return "application/javascript";
    if(is(".json")) return "application/json";
    if(is(".png"))  return "image/png";
    if(is(".jpg") || is(".jpeg")) return "image/jpeg";
    if(is(".svg"))  return "image/svg+xml";
    return "application/octet-stream";
}

// A short text response for errors.
http::message_generator text_response(http::request<http::string_body> const& req,
                                      http::status status, std::string text)
{
    http::response<http::string_body> res{status, req.version()};
    res.set(http::field::server, server_name);
    res.set(http::field::content_type, "text/plain");
    res.keep_alive(req.keep_alive());
    if(status == http::status::method_not_allowed)
        res.set(http::field::allow, "GET, HEAD");
    res.body() = std::move(text) + "\n";
    res.prepare_payload();
    return res;
}

// Whether the request-target names a hidden file or directory: one path segment starting
// with '.' (".hidden", ".git/config", "a/./b"). Backslashes separate segments too, for
// Windows.
bool names_hidden_file(beast::string_view target)
{
    for(std::size_t i = 0; i + 1 < target.size(); ++i)
        if((target[i] == '/' || target[i] == '\\') && target[i + 1] == '.')
            return true;
    return false;
}

// The file a path names with every link resolved, if it is a regular file inside root
// (itself canonical); an empty path otherwise. Comparing whole path components, so that
// "/www2/x" is not inside "/www".
std::filesystem::path file_inside(std::filesystem::path const& root, std::string const& path)
{
    error_code ec;
    std::filesystem::path file = std::filesystem::canonical(path, ec);
    if(ec || !std::filesystem::is_regular_file(file, ec))
        return {};
    auto const mismatch = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
    if(mismatch.first != root.end())
        return {};
    return file;
}

// Maps a request to its response. Pure function of the request and the file system:
// no sockets here. doc_root is canonical (absolute, without links).
http::message_generator handle_request(std::string const& doc_root,
                                       http::request<http::string_body>&& req)
{
    if(req.method() != http::verb::get && req.method() != http::verb::head)
        return text_response(req, http::status::method_not_allowed, "Method not allowed");

    // The path is the target up to any query string. Percent-escapes are not decoded, so
    // "%2e%2e" names a file literally called that, and rejecting ".." is enough to keep
    // every request inside doc_root.
    beast::string_view target = req.target();
    target = target.substr(0, target.find('?'));
    if(target.empty() || target[0] != '/' || target.find("..") != beast::string_view::npos)
        return text_response(req, http::status::bad_request, "Illegal request-target");

    std::string path = doc_root + std::string(target);
    if(path.back() == '/')
        path += "index.html";

    // Only regular files (opening a directory would succeed and then fail mid-response),
    // and only inside doc_root once every link is resolved: a link in doc_root to
    // /etc/passwd, or to a directory outside, is as missing as a file that is not there.
    // Hidden files look missing too: nothing tells a client that "/.git/config" exists.
    std::filesystem::path const file =
        names_hidden_file(target) ? std::filesystem::path() : file_inside(doc_root, path);
    if(file.empty())
        return text_response(req, http::status::not_found, "Not found: " + std::string(target));

    error_code ec;
    http::file_body::value_type body;
    body.open(file.string().c_str(), beast::file_mode::scan, ec);
    if(ec)
        return text_response(req, http::status::internal_server_error, ec.message());
    auto const size = body.size();

    // HEAD: the headers GET would send, without the body.
    if(req.method() == http::verb::head)
    {
        http::response<http::empty_body> res{http::status::ok, req.version()};
        res.set(http::field::server, server_name);
        res.set(http::field::content_type, mime_type(path));
        res.content_length(size);
        res.keep_alive(req.keep_alive());
        return res;
    }

    http::response<http::file_body> res{
        std::piecewise_construct,
        std::make_tuple(std::move(body)),
        std::make_tuple(http::status::ok, req.version())};
    res.set(http::field::server, server_name);
    res.set(http::field::content_type, mime_type(path));
    res.content_length(size);
    res.keep_alive(req.keep_alive());
    return res;
}

// ---- one connection ----------------------------------------------------------------------

// Reads requests and writes responses one after the other (HTTP/1.1 without pipelining
// concurrency: a request is read only once the previous response has been written).
class http_session : public std::enable_shared_from_this<http_session>
{
public:
    http_session(tcp::socket socket, std::shared_ptr<std::string const> doc_root)
        : socket_(std::move(socket))
        , deadline_(socket_.get_executor()) // same strand as the socket: no data race
        , doc_root_(std::move(doc_root))
    {
    }

    void run()
    {
        // The accept handler ran on the acceptor's executor; continue on our own strand.
        net::dispatch(socket_.get_executor(), [self = shared_from_this()] { self->read_request(); });
    }

private:
    void read_request()
    {
        req_ = {}; // the parser needs a fresh message every time
        arm_deadline();
        http::async_read(socket_, buffer_, req_,
            [self = shared_from_this()](error_code ec, std::size_t)
            {
                if(ec == http::error::end_of_stream)
                    return self->close(); // the client closed the connection between requests
                if(ec)
                    return report(ec, "read");
                self->write_response(handle_request(*self->doc_root_, std::move(self->req_)));
            });
    }

    void write_response(http::message_generator response)
    {
        bool const keep_alive = response.keep_alive();
        arm_deadline();
        beast::async_write(socket_, std::move(response),
            [self = shared_from_this(), keep_alive](error_code ec, std::size_t)
            {
                if(ec)
                    return report(ec, "write");
                if(!keep_alive)
                    return self->close(); // "Connection: close" (or HTTP/1.0)
                self->read_request();
            });
    }

    // A connection gets idle_timeout for each read and each write. The timer's handler only
    // holds a weak_ptr: a pending deadline must not keep a finished session alive.
    void arm_deadline()
    {
        deadline_.expires_after(idle_timeout);
        deadline_.async_wait([weak = weak_from_this()](error_code ec)
        {
            auto self = weak.lock();
            // The expiry check skips a wait that fired just as the operation completed
            // and the deadline was set again.
            if(!self || ec || self->deadline_.expiry() > std::chrono::steady_clock::now())
                return;
            self->socket_.close(ec); // the pending read or write ends with operation_aborted
        });
    }

    void close()
    {
        // Shutting down our side sends FIN once the response is out; the socket itself is
        // closed when the session is destroyed, i.e. right after this handler.
        error_code ec;
        socket_.shutdown(tcp::socket::shutdown_send, ec);
    }

    static void report(error_code ec, char const* what)
    {
        // Clients vanishing and our own time-outs are part of normal life: stay quiet.
        if(ec == net::error::operation_aborted || ec == net::error::eof ||
           ec == net::error::connection_reset || ec == net::error::broken_pipe ||
           ec == http::error::end_of_stream)
            return;
        std::cerr << what << ": " << ec.message() << "\n";
    }

    tcp::socket socket_;
    net::steady_timer deadline_;
    beast::flat_buffer buffer_;
    http::request<http::string_body> req_;
    std::shared_ptr<std::string const> doc_root_;
};

// ---- accepting connections ---------------------------------------------------------------

class listener
{
public:
    listener(net::io_context& ioc, tcp::endpoint const& endpoint, std::string doc_root)
        : ioc_(ioc)
        , acceptor_(ioc, endpoint)
        , backoff_(ioc.get_executor(), "accept")
        , doc_root_(std::make_shared<std::string const>(std::move(doc_root)))
    {
        accept();
    }

    unsigned short port() const { return acceptor_.local_endpoint().port(); }

private:
    void accept()
    {
        // Each connection gets its own strand, so that with several threads running the
        // io_context a session's handlers (socket and timer) never run concurrently.
        acceptor_.async_accept(net::make_strand(ioc_),
            [this](error_code ec, tcp::socket socket)
            {
                if(!ec)
                    std::make_shared<http_session>(std::move(socket), doc_root_)->run();
                // Accept the next one: at once, or after a pause when out of descriptors,
                // logging at most a line a second (see accept_backoff.hpp).
                backoff_.then(ec, [this] { accept(); });
            });
    }

    net::io_context& ioc_;
    tcp::acceptor acceptor_;
    accept_backoff backoff_;
    std::shared_ptr<std::string const> doc_root_;
};

int main(int argc, char* argv[])
{
    if(argc < 3 || argc > 5)
    {
        std::cerr << "usage: http_server <port> <doc_root> [threads] [address]\n"
                     "  e.g. http_server 8080 /var/www 2\n";
        return EXIT_FAILURE;
    }
    try
    {
        auto const port = static_cast<unsigned short>(std::stoi(argv[1]));
        // Canonical (absolute, links resolved, no trailing '/': every target starts with
        // '/'), so that the files' canonical paths can be compared with it.
        std::string doc_root = std::filesystem::canonical(argv[2]).string();
        if(!doc_root.empty() && doc_root.back() == '/')
            doc_root.pop_back(); // doc_root "/" itself
        int const threads = argc > 3 ? std::max(1, std::stoi(argv[3])) : 1;
        auto const address = net::ip::make_address(argc > 4 ? argv[4] : "127.0.0.1");

        net::io_context ioc{threads};
        listener server(ioc, tcp::endpoint(address, port), doc_root);

        net::signal_set signals(ioc, SIGINT, SIGTERM);
        signals.async_wait([&](error_code, int) { ioc.stop(); });

        std::cout << "listening on port " << server.port() << " [" << backend::name << ", "
                  << threads << " thread(s)]" << std::endl;

        // This thread plus threads-1 more run the same io_context.
        std::vector<std::thread> pool;
        for(int i = 1; i < threads; ++i)
            pool.emplace_back([&ioc] { ioc.run(); });
        ioc.run();
        for(auto& t : pool)
            t.join();
    }
    catch(std::exception const& e)
    {
        std::cerr << "http_server: " << e.what() << "\n";
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}
