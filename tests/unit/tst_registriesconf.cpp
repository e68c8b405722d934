// SPDX-License-Identifier: GPL-3.0-or-later
#include "registriesconf.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace gpudesk;

// containers-registries.conf(5) as podman reads it: where a registry's images are served.
class TstRegistriesConf : public QObject
{
    Q_OBJECT
private slots:
    void versionTwo();
    void wildcardsAndPaths();
    void versionOne();
    void malformedIsRefusedWithItsLine_data();
    void malformedIsRefusedWithItsLine();
    void fileFromTheEnvironment();
};

void TstRegistriesConf::versionTwo()
{
    // As a lab writes it: search registries over several lines, aliases with quoted keys, a
    // registry served elsewhere over plain HTTP with a mirror (not followed), one blocked.
    const QByteArray text = R"(# lab mirror
unqualified-search-registries = [
    "registry.lab.internal",  # ours first
    'docker.io',
]
short-name-mode = "enforcing"

[[registry]]
prefix = "registry.lab.internal"
location = "10.0.0.5:5000"   # the registry VM
insecure = true

[[registry.mirror]]
location = "mirror.lab.internal"
insecure = false

[[registry]]
location = "quay.io"
blocked = true

[aliases]
"pytorch" = "docker.io/pytorch/pytorch"
)";
    const RegistriesConf conf = RegistriesConf::parse(text, QStringLiteral("lab.conf"));
    QCOMPARE(conf.error(), QString());
    QCOMPARE(conf.entries().size(), 2);
    const RegistriesConf::Entry *lab = conf.forHost(QStringLiteral("registry.lab.internal"));
    QVERIFY(lab);
    QCOMPARE(lab->location, QStringLiteral("10.0.0.5:5000"));
    QVERIFY(lab->insecure);
    QVERIFY(!lab->blocked);
    QCOMPARE(lab->line, 8);
    const RegistriesConf::Entry *quay = conf.forHost(QStringLiteral("quay.io"));
    QVERIFY(quay);
    QCOMPARE(quay->prefix, QStringLiteral("quay.io")); // a missing prefix is the location
    QCOMPARE(quay->location, QStringLiteral("quay.io"));
    QVERIFY(quay->blocked);
    QVERIFY(!quay->insecure);
    QCOMPARE(conf.forHost(QStringLiteral("mirror.lab.internal")), nullptr);
    QCOMPARE(conf.forHost(QStringLiteral("docker.io")), nullptr);
}

void TstRegistriesConf::wildcardsAndPaths()
{
    const QByteArray text = "[[registry]]\nprefix = \"*.lab.internal\"\ninsecure = true\n"
                            "[[registry]]\nprefix = \"*.gpu.lab.internal\"\nblocked = true\n"
                            "[[registry]]\nprefix = \"ghcr.io/acme\"\nlocation = \"acme:5000\"\n"
                            "[[registry]]\nprefix = 'tab\\tin-a-literal'\n";
    const RegistriesConf conf = RegistriesConf::parse(text, QStringLiteral("w.conf"));
    QCOMPARE(conf.error(), QString());
    // The most specific wildcard wins; a wildcard has no location of its own.
    const RegistriesConf::Entry *a = conf.forHost(QStringLiteral("a.gpu.lab.internal"));
    QVERIFY(a);
    QVERIFY(a->blocked);
    QCOMPARE(a->location, QString());
    const RegistriesConf::Entry *b = conf.forHost(QStringLiteral("harbor.lab.internal"));
    QVERIFY(b);
    QVERIFY(b->insecure);
    QCOMPARE(conf.forHost(QStringLiteral("lab.internal")), nullptr);
    // A prefix with a path moves some repositories only, not the registry.
    QCOMPARE(conf.forHost(QStringLiteral("ghcr.io")), nullptr);
    // Literal strings keep their backslashes.
    QVERIFY(conf.forHost(QStringLiteral("tab\\tin-a-literal")));
}

void TstRegistriesConf::versionOne()
{
    const QByteArray text = "[registries.search]\nregistries = ['docker.io']\n"
                            "[registries.insecure]\nregistries = [\"127.0.0.1:5000\", "
                            "\"old.lab:5000\"]\n[registries.block]\nregistries = [\"evil.io\"]\n";
    const RegistriesConf conf = RegistriesConf::parse(text, QStringLiteral("v1.conf"));
    QCOMPARE(conf.error(), QString());
    QCOMPARE(conf.entries().size(), 3);
    QVERIFY(conf.forHost(QStringLiteral("old.lab:5000"))->insecure);
    QCOMPARE(conf.forHost(QStringLiteral("old.lab:5000"))->location,
             QStringLiteral("old.lab:5000"));
    QVERIFY(conf.forHost(QStringLiteral("evil.io"))->blocked);
    QCOMPARE(conf.forHost(QStringLiteral("docker.io")), nullptr);
}

void TstRegistriesConf::malformedIsRefusedWithItsLine_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("unclosed string")
        << QByteArray("[[registry]]\nprefix = \"a.io\nlocation = \"b\"\n")
        << u"bad.conf, line 2: a string is not closed"_qs;
    QTest::newRow("inline table") << QByteArray("\n\n[[registry]]\nmirror = { location = \"m\" }\n")
                                  << u"bad.conf, line 4: expected a value"_qs;
    QTest::newRow("unclosed array")
        << QByteArray("x = [\"a\",\n\"b\"\n") << u"bad.conf, line 3: an array is not closed"_qs;
    QTest::newRow("garbage after value")
        << QByteArray("[[registry]]\ninsecure = true false\n")
        << u"bad.conf, line 2: unexpected \"false\" after the value"_qs;
    QTest::newRow("multi-line string") << QByteArray("a = \"\"\"x\n\"\"\"\n")
                                       << u"bad.conf, line 1: multi-line strings are not read"_qs;
    QTest::newRow("unknown escape")
        << QByteArray("a = \"\\q\"\n") << u"bad.conf, line 1: the escape \\q is not read"_qs;
    QTest::newRow("date") << QByteArray("when = 1979-05-27T07:32:00Z\n")
                          << u"bad.conf, line 1: \"1979-05-27T07\" is not a value gpudesk reads"_qs;
    QTest::newRow("table not closed")
        << QByteArray("[[registry]\n") << u"bad.conf, line 1: expected \"]]\""_qs;
}

void TstRegistriesConf::malformedIsRefusedWithItsLine()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, error);
    const RegistriesConf conf = RegistriesConf::parse(text, QStringLiteral("bad.conf"));
    // Nothing of a file gpudesk could not read is used: not even the entries before the fault.
    QCOMPARE(conf.entries().size(), 0);
    QCOMPARE(conf.error(), error + u". gpudesk used none of its registries."_qs);
}

void TstRegistriesConf::fileFromTheEnvironment()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString user = dir.filePath(QStringLiteral("config/containers/registries.conf"));
    QVERIFY(QDir().mkpath(QFileInfo(user).path()));
    QFile f(user);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("[[registry]]\nprefix = \"registry.lab.internal\"\nlocation = \"127.0.0.1:5001\"\n");
    f.close();
    qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
    qunsetenv("CONTAINERS_REGISTRIES_CONF");
    QCOMPARE(RegistriesConf::path(), user);
    QCOMPARE(RegistriesConf::load().forHost(QStringLiteral("registry.lab.internal"))->location,
             QStringLiteral("127.0.0.1:5001"));
    // The variable the containers tools honour comes first, even for a file that is missing:
    // that is said, never replaced by another file.
    const QString missing = dir.filePath(QStringLiteral("missing.conf"));
    qputenv("CONTAINERS_REGISTRIES_CONF", missing.toUtf8());
    const RegistriesConf conf = RegistriesConf::load();
    QCOMPARE(conf.file(), missing);
    QVERIFY2(conf.error().startsWith(u"Cannot read "_qs + missing), qPrintable(conf.error()));
    QCOMPARE(conf.entries().size(), 0);
}

QTEST_GUILESS_MAIN(TstRegistriesConf)
#include "tst_registriesconf.moc"
