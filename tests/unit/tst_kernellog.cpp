// SPDX-License-Identifier: GPL-3.0-or-later
// The NVIDIA driver's lines of a node's kernel log, as `dmesg --time-format iso` prints them:
// only NVRM lines, only those since the pod was made, the newest kept, bad bytes never trusted.
#include "kernellog.h"

#include <QDateTime>
#include <QTest>

using namespace gpudesk;

class TestKernelLog : public QObject
{
    Q_OBJECT
private slots:
    void onlyTheDriversLinesSinceThePod();
    void newestKept();
    void otherFormatsAndBadBytes();
};

namespace {

const QByteArray Dmesg =
    "2026-11-26T08:01:12,004201+00:00 Linux version 5.15.0-91-generic (buildd@lcy02-amd64-045)\n"
    "2026-11-26T08:01:40,118000+00:00 NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.129.03\n"
    "2026-11-26T16:43:56,101337+00:00 pcieport 0000:00:03.0: AER: Uncorrected (Fatal) error "
    "received: 0000:2a:00.0\n"
    "2026-11-26T16:43:56,512004+00:00 NVRM: Xid (PCI:0000:2a:00): 79, pid='<unknown>', "
    "name=<unknown>, GPU has fallen off the bus.\n"
    "2026-11-26T16:43:56,513310+00:00 NVRM: GPU 0000:2a:00.0: GPU has fallen off the bus.\n"
    "2026-11-26T18:43:56,513310+08:00 NVRM: Xid (PCI:0000:18:00): 13, pid=2231, name=python, "
    "Graphics Exception\n";

qint64 at(const char *iso)
{
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs).toMSecsSinceEpoch();
}

} // namespace

void TestKernelLog::onlyTheDriversLinesSinceThePod()
{
    QStringList all = kernellog::nvrmLines(Dmesg, 0);
    QCOMPARE(all.size(), 4);
    QVERIFY(all.first().endsWith(u"Kernel Module  535.129.03"));
    // Since the pod was made (16:00 UTC): the boot's line goes, the AER line was never one; the
    // last line's +08:00 is 10:43 UTC, before it.
    QStringList since = kernellog::nvrmLines(Dmesg, at("2026-11-26T16:00:00.000Z"));
    QCOMPARE(since.size(), 2);
    QVERIFY(since[0].contains(u"Xid (PCI:0000:2a:00): 79"));
    QVERIFY(since[1].contains(u"GPU 0000:2a:00.0: GPU has fallen off the bus."));
    // To the millisecond: the Xid at 16:43:56.512 is kept from .512 on, gone from .513.
    QCOMPARE(kernellog::nvrmLines(Dmesg, at("2026-11-26T16:43:56.512Z")).size(), 2);
    QCOMPARE(kernellog::nvrmLines(Dmesg, at("2026-11-26T16:43:56.513Z")).size(), 1);
}

void TestKernelLog::newestKept()
{
    QByteArray many;
    for (int i = 0; i < 500; ++i)
        many += "2026-11-26T16:43:" + QByteArray::number(10 + i / 100) +
                ",000000+00:00 NVRM: Xid "
                "(PCI:0000:2a:00): 94, pid=" +
                QByteArray::number(i) + ", Contained ECC error.\n";
    const QStringList kept = kernellog::nvrmLines(many, 0, 200);
    QCOMPARE(kept.size(), 200);
    QVERIFY(kept.first().contains(u"pid=300,"));
    QVERIFY(kept.last().contains(u"pid=499,"));
}

void TestKernelLog::otherFormatsAndBadBytes()
{
    // Plain dmesg (seconds since boot): no time to compare, kept only when all are asked for.
    const QByteArray plain = "[12345.678901] NVRM: Xid (PCI:0000:2a:00): 79, GPU has fallen off "
                             "the bus.\n";
    QCOMPARE(kernellog::nvrmLines(plain, 0).size(), 1);
    QCOMPARE(kernellog::nvrmLines(plain, at("2026-11-26T16:00:00.000Z")).size(), 0);
    // Invalid UTF-8 and a line of megabytes: replaced and cut, never a crash.
    QByteArray bad = "2026-11-26T16:43:56,512004+00:00 NVRM: Xid \xff\xfe (PCI:0000:2a:00): 79, " +
                     QByteArray(3 * 1024 * 1024, 'x') + "\n";
    const QStringList lines = kernellog::nvrmLines(bad, 0);
    QCOMPARE(lines.size(), 1);
    QVERIFY(lines.first().size() <= 4096);
    QVERIFY(lines.first().contains(QChar::ReplacementCharacter));
    QCOMPARE(kernellog::nvrmLines("", 0).size(), 0);
    QCOMPARE(kernellog::nvrmLines("no newline at the end NVRM: x", 0).size(), 1);
}

QTEST_GUILESS_MAIN(TestKernelLog)
#include "tst_kernellog.moc"
