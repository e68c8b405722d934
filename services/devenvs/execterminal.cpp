// SPDX-License-Identifier: GPL-3.0-or-later
#include "execterminal.h"

#include "devpodresolver.h"
#include "kubeclient.h"
#include "podexec.h"

#include <QRegularExpression>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace gpudesk {

namespace {

// SIGWINCH and the signals that end a terminal session (its window closed, kill), written into
// a pipe the event loop reads (a handler may do little else): the terminal is given back as it
// was before gpudesk goes.
int signalPipe[2] = {-1, -1};
constexpr int HandledSignals[] = {SIGWINCH, SIGHUP, SIGTERM, SIGINT, SIGQUIT};

void onSignal(int sig)
{
    const int saved = errno;
    const char byte = char(sig);
    [[maybe_unused]] const ssize_t n = ::write(signalPipe[1], &byte, 1);
    errno = saved;
}

// What a runtime says when the image has no such program: try the next shell.
bool notInImage(const QString &error)
{
    return error.contains(QLatin1String("executable file not found")) ||
           error.contains(QLatin1String("no such file or directory"));
}

void writeAll(int fd, const QByteArray &data)
{
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += n;
    }
}

} // namespace

ExecTerminal::ExecTerminal(const QStringList &kubeconfigFiles, QString target, QObject *parent)
    : QObject(parent), m_files(kubeconfigFiles), m_target(std::move(target))
{}

ExecTerminal::~ExecTerminal()
{
    rawMode(false);
}

bool ExecTerminal::parseTarget(const QString &target, QString *context, QString *ns,
                               QString *environment, QString *error)
{
    // As --stdio-forward: the context may hold '/', the namespace and environment cannot.
    static const QRegularExpression re(
        QStringLiteral("^(.+)/([a-z0-9]([-a-z0-9]*[a-z0-9])?)/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)$"));
    const auto m = re.match(target);
    if (!m.hasMatch()) {
        *error = tr("--exec takes CONTEXT/NAMESPACE/ENVIRONMENT, not \"%1\"").arg(target);
        return false;
    }
    *context = m.captured(1);
    *ns = m.captured(2);
    *environment = m.captured(4);
    return true;
}

bool ExecTerminal::prepare(QString *error)
{
    // Without a stdin, descriptor 0 would be the next socket opened, read as the user's input.
    if (::fcntl(STDIN_FILENO, F_GETFD) < 0)
        ::open("/dev/null", O_RDONLY);
    if (!parseTarget(m_target, &m_context, &m_ns, &m_environment, error))
        return false;
    m_client = DevPodResolver::clientFor(m_files, m_context, error);
    return m_client != nullptr;
}

void ExecTerminal::start()
{
    auto *resolver = new DevPodResolver(m_client.get(), m_ns, m_environment, this);
    resolver->resolve(this, [this](const QString &pod, const QString &why, bool) {
        if (pod.isEmpty()) {
            end(1, why);
            return;
        }
        std::fprintf(stderr, "%s\n",
                     qPrintable(tr("gpudesk: a shell in %1 (%2/%3); exit or Ctrl-D leaves it.")
                                    .arg(pod, m_ns, m_environment)));
        run(pod, {QStringLiteral("bash"), QStringLiteral("sh")});
    });
}

void ExecTerminal::run(const QString &pod, const QStringList &shells)
{
    PodExec::Options options;
    options.stdin = true;
    options.tty = isatty(STDIN_FILENO);
    m_exec = new PodExec(m_client.get(), m_ns, pod, {shells.first()}, options, this);
    auto *exec = m_exec;
    auto said = std::make_shared<bool>(false);
    connect(exec, &PodExec::started, this, [this] {
        rawMode(true);
        sendSize();
        if (!m_stdin) {
            m_stdin = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
            connect(m_stdin, &QSocketNotifier::activated, this, &ExecTerminal::readStdin);
        }
        m_stdin->setEnabled(true);
    });
    connect(exec, &PodExec::output, this, [said](const QByteArray &data) {
        *said = true;
        writeAll(STDOUT_FILENO, data);
    });
    connect(exec, &PodExec::errorOutput, this, [said](const QByteArray &data) {
        *said = true;
        writeAll(STDERR_FILENO, data);
    });
    connect(exec, &PodExec::finished, this,
            [this, exec, pod, shells, said](int code, const QString &error) {
                exec->deleteLater();
                if (m_exec == exec)
                    m_exec = nullptr;
                // runc says "executable file not found"; crun and CRI-O exit 127 with nothing
                // said: either way the image has no such shell.
                const bool missing = (code < 0 && notInImage(error)) || (code == 127 && !*said);
                if (missing && shells.size() > 1) {
                    if (m_stdin)
                        m_stdin->setEnabled(false);
                    run(pod, shells.mid(1));
                    return;
                }
                end(code < 0 ? 1 : code, error);
            });
    exec->start();
}

void ExecTerminal::readStdin()
{
    char buf[16 * 1024];
    const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        m_stdin->setEnabled(false);
        if (m_exec)
            m_exec->closeStdin();
        return;
    }
    if (m_exec)
        m_exec->writeStdin(QByteArray(buf, qsizetype(n)));
}

void ExecTerminal::sendSize()
{
    winsize size{};
    if (m_exec && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
        m_exec->resize(size.ws_col, size.ws_row);
}

void ExecTerminal::rawMode(bool on)
{
    if (!isatty(STDIN_FILENO) || on == m_raw)
        return;
    if (on) {
        if (::tcgetattr(STDIN_FILENO, &m_saved) != 0)
            return;
        termios raw = m_saved;
        ::cfmakeraw(&raw);
        ::tcsetattr(STDIN_FILENO, TCSANOW, &raw);
        m_raw = true;
        if (signalPipe[0] < 0 && ::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) == 0) {
            struct sigaction sa = {};
            sa.sa_handler = onSignal;
            sa.sa_flags = SA_RESTART;
            for (const int sig : HandledSignals)
                ::sigaction(sig, &sa, nullptr);
        }
        if (signalPipe[0] >= 0 && !m_signals) {
            m_signals = new QSocketNotifier(signalPipe[0], QSocketNotifier::Read, this);
            connect(m_signals, &QSocketNotifier::activated, this, [this] {
                char got[64];
                ssize_t n = 0;
                while ((n = ::read(signalPipe[0], got, sizeof got)) > 0)
                    for (ssize_t i = 0; i < n; ++i) {
                        if (got[i] == SIGWINCH) {
                            sendSize();
                        } else {
                            // As a shell killed by it: 128 + the signal.
                            end(128 + got[i], {});
                            if (m_exec)
                                m_exec->cancel();
                            return;
                        }
                    }
            });
        }
    } else {
        ::tcsetattr(STDIN_FILENO, TCSANOW, &m_saved);
        m_raw = false;
    }
}

void ExecTerminal::end(int exitCode, const QString &message)
{
    if (std::exchange(m_ended, true))
        return;
    if (m_stdin)
        m_stdin->setEnabled(false);
    // The terminal given back before anything is said on it.
    rawMode(false);
    emit finished(exitCode, message);
}

} // namespace gpudesk
