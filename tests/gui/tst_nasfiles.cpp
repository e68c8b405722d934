// SPDX-License-Identifier: GPL-3.0-or-later
// The NAS's files over SFTP (issue 38, part 2), on a simulator of the test's own whose NAS is a
// real directory tree: a folder browsed, a folder downloaded (every file's bytes equal the
// NAS's, links not followed and said), a file uploaded, a download cancelled half-way and asked
// again going on where it stopped, and the hostile corner (a name with a newline, a link to
// /etc, an unreadable folder) — nothing followed out of the NAS.
#include "clustersession.h"
#include "contextconnection.h"
#include "nasfiles.h"
#include "nasfilespanel.h"
#include "sshpool.h"
#include "storagepage.h"
#include "windowfixture.h"

#include <QDirIterator>
#include <QRandomGenerator>
#include <QTreeWidget>

using namespace gpudesk;

namespace {

// Relative path → bytes of every regular file below `root` (links left out).
QMap<QString, QByteArray> filesBelow(const QString &root)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            out.insert(QDir(root).relativeFilePath(path), f.readAll());
    }
    return out;
}

} // namespace

class TestNasFiles : public QObject, public WindowFixture
{
    Q_OBJECT
private slots:
    void browseCopyResume();
};

void TestNasFiles::browseCopyResume()
{
    QTemporaryDir dir;
    QProcess sim;
    startOwnSim(sim, dir.path(), true);
    auto services = ownSimServices(dir.path());
    QVERIFY(services);
    MainWindow w(services.get());
    w.resize(1500, 900);
    w.show();
    const QString nas =
        simTruthOf(dir.path())[QStringLiteral("nas")][QStringLiteral("root")].toString();
    QVERIFY(QFileInfo(nas).isDir());
    // The nodes answer over SSH (their first samples).
    QTRY_VERIFY_WITH_TIMEOUT(
        services->session()->connection() && services->session()->connection()->pool() &&
            services->session()->connection()->pool()->status(QStringLiteral("a100-01")).usable(),
        60000);

    w.showPage(MainWindow::Storage);
    auto *page = static_cast<StoragePage *>(w.page(MainWindow::Storage));
    NasFilesPanel *panel = page->files();
    NasFiles *files = services->nasFiles();
    const auto rowOf = [panel](const QString &name) {
        for (int i = 0; i < panel->view()->topLevelItemCount(); ++i)
            if (panel->view()->topLevelItem(i)->text(0) == name)
                return i;
        return -1;
    };
    page->browse(QStringLiteral("/mnt/user/alice"));
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("code")) >= 0, 20000);
    QVERIFY(rowOf(QStringLiteral("checkpoints")) >= 0);
    QCOMPARE(panel->view()->topLevelItem(rowOf(QStringLiteral("code")))->text(3), tr("folder"));
    save(w, QStringLiteral("storage-files"));

    // A folder downloaded: every file, its bytes; links named and left.
    QTemporaryDir local;
    QSignalSpy finished(files, &NasFiles::finished);

    panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(QStringLiteral("code"))));
    panel->downloadTo(local.path());
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    const auto want = filesBelow(nas + QStringLiteral("/user/alice/code"));
    const auto got = filesBelow(local.filePath(QStringLiteral("code")));
    QVERIFY(want.size() >= 3);
    QCOMPARE(got.keys(), want.keys());
    QVERIFY(got == want);
    QVERIFY2(finished.last().at(1).toString().contains(QStringLiteral("Downloaded")),
             qPrintable(finished.last().at(1).toString()));

    // A file uploaded into the folder shown: the same bytes on the NAS, and listed.
    QByteArray payload(3 << 20, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(payload.data()),
                                          payload.size() / 4);
    const QString up = local.filePath(QStringLiteral("results.bin"));
    {
        QFile f(up);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(payload);
    }
    panel->uploadFile(up);
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    {
        QFile f(nas + QStringLiteral("/user/alice/results.bin"));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        QVERIFY(f.readAll() == payload);
    }
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("results.bin")) >= 0, 10000);
    // Uploaded again: refused, nothing replaced.
    panel->uploadFile(up);
    QVERIFY(finished.wait(60000));
    QVERIFY(!finished.last().at(0).toBool());
    QVERIFY2(finished.last().at(1).toString().contains(QStringLiteral("there already")),
             qPrintable(finished.last().at(1).toString()));

    // A big file (sparse on the NAS: 256 MiB, its first and last 64 KiB random): cancelled early,
    // then asked again — it goes on from where it stopped, and both ends arrive whole.
    constexpr qint64 Big = 256LL << 20;
    QByteArray head(64 << 10, Qt::Uninitialized), tail(64 << 10, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(head.data()),
                                          head.size() / 4);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(tail.data()),
                                          tail.size() / 4);
    {
        QFile f(nas + QStringLiteral("/user/alice/big.bin"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(head);
        QVERIFY(f.seek(Big - tail.size()));
        f.write(tail);
    }
    panel->go(QStringLiteral("/mnt/user/alice"));
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("big.bin")) >= 0, 10000);
    panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(QStringLiteral("big.bin"))));
    QTemporaryDir into;
    auto cut = connect(files, &NasFiles::progress, files, [files](qint64 done) {
        if (done > (4 << 20))
            files->cancel();
    });
    panel->downloadTo(into.path());
    QVERIFY(finished.wait(60000));
    disconnect(cut);
    QVERIFY2(!finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    const QString part = into.filePath(QStringLiteral("big.bin.part"));
    const qint64 had = QFileInfo(part).size();
    QVERIFY2(had > 0 && had < Big, qPrintable(QString::number(had)));
    QVERIFY(!QFileInfo::exists(into.filePath(QStringLiteral("big.bin"))));
    QList<qint64> seen;
    auto watch = connect(files, &NasFiles::progress, files, [&seen](qint64 done) { seen << done; });
    panel->downloadTo(into.path());
    QVERIFY(finished.wait(120000));
    disconnect(watch);
    QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
    QVERIFY(!seen.isEmpty());
    QVERIFY2(seen.constFirst() >= had, qPrintable(QString::number(seen.constFirst())));
    {
        QFile f(into.filePath(QStringLiteral("big.bin")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.size(), Big);
        QVERIFY(f.read(head.size()) == head);
        QVERIFY(f.seek(Big / 2));
        QVERIFY(f.read(1 << 20) == QByteArray(1 << 20, '\0'));
        QVERIFY(f.seek(Big - tail.size()));
        QVERIFY(f.read(tail.size()) == tail);
    }
    QVERIFY(!QFileInfo::exists(part));

    // The hostile corner: names as data; the link to /etc and the unreadable folder said,
    // nothing from outside the NAS.
    panel->go(QStringLiteral("/mnt/user/frank"));
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("private")) >= 0, 10000);
    const auto onNas = [&nas](const QString &name) {
        QFile f(nas + QStringLiteral("/user/frank/") + name);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(not on the NAS)");
    };
    QTemporaryDir hostile;
    for (const QString &name : {QStringLiteral("notes\nold.txt"), QStringLiteral("$(reboot).txt"),
                                QStringLiteral("-rf")}) {
        panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(name)));
        panel->downloadTo(hostile.path());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
        QFile f(hostile.filePath(name));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(name));
        QCOMPARE(f.readAll(), onNas(name));
    }
    panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(QStringLiteral("etc"))));
    QCOMPARE(panel->current().type, 'l');
    panel->downloadTo(hostile.path());
    QVERIFY(finished.wait(60000));
    QVERIFY(!finished.last().at(0).toBool());
    QVERIFY2(finished.last().at(1).toString().contains(QStringLiteral("is a link")),
             qPrintable(finished.last().at(1).toString()));
    QVERIFY(!QFileInfo::exists(hostile.filePath(QStringLiteral("etc"))));
    panel->view()->setCurrentItem(panel->view()->topLevelItem(rowOf(QStringLiteral("private"))));
    panel->downloadTo(hostile.path());
    QVERIFY(finished.wait(60000));
    const QString said = finished.last().at(1).toString();
    QVERIFY2(said.contains(QStringLiteral("/mnt/user/frank/private: permission denied")),
             qPrintable(said));
    QCOMPARE(filesBelow(hostile.path()).size(), 3);
}

QTEST_MAIN(TestNasFiles)
#include "tst_nasfiles.moc"
