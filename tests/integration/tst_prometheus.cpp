// SPDX-License-Identifier: GPL-3.0-or-later
// History from a real Prometheus scraping a real node-exporter whose textfile collector serves
// DCGM-exporter-format metrics written by this test: query_range gives back exactly what was
// written, in order, and the node chart's Prometheus range shows those series. Plus Prometheus's
// own errors and an address with nothing behind it.
#include "clusterstore.h"
#include "prometheusclient.h"
#include "telemetrychart.h"
#include "telemetrystore.h"

#include <QDateTime>
#include <QFile>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace gpudesk;

class TestPrometheus : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void seriesEqualWhatWasWritten();
    void chartShowsPrometheusHistory();
    void errors();

private:
    void write(int gpu0, int gpu1);
    QList<PromSeries> query(const QString &q, qint64 from, qint64 to, int step, QString *error);

    QString m_textfile;
    QUrl m_url;
    qint64 m_start = 0;
};

void TestPrometheus::initTestCase()
{
    const QString peers = qEnvironmentVariable("GPUDESK_PEERS");
    QVERIFY(!peers.isEmpty());
    QFile url(peers + QStringLiteral("/prometheus/url"));
    QVERIFY(url.open(QIODevice::ReadOnly));
    m_url = QUrl(QString::fromUtf8(url.readAll().trimmed()));
    m_textfile = peers + QStringLiteral("/prometheus/textfile/dcgm.prom");
}

void TestPrometheus::write(int gpu0, int gpu1)
{
    // Written whole and renamed into place, as node-exporter's textfile collector wants.
    QSaveFile f(m_textfile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QByteArray text = "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
                      "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n";
    const int values[] = {gpu0, gpu1};
    for (int g = 0; g < 2; ++g)
        text += "DCGM_FI_DEV_GPU_UTIL{gpu=\"" + QByteArray::number(g) + "\",UUID=\"GPU-test-" +
                QByteArray::number(g) + "\",device=\"nvidia" + QByteArray::number(g) +
                "\",modelName=\"NVIDIA A800-SXM4-80GB\",Hostname=\"a800-test\"} " +
                QByteArray::number(values[g]) + '\n';
    f.write(text);
    QVERIFY(f.commit());
}

QList<PromSeries> TestPrometheus::query(const QString &q, qint64 from, qint64 to, int step,
                                        QString *error)
{
    PrometheusClient client(m_url);
    QList<PromSeries> out;
    bool done = false;
    client.queryRange(q, from, to, step, this, [&](const QList<PromSeries> &s, const QString &e) {
        out = s;
        *error = e;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 30000))
        *error = QStringLiteral("no answer in 30 s");
    return out;
}

namespace {

// The values of a series with consecutive repeats folded: what was written, in order.
QList<double> runs(const QList<QPointF> &points)
{
    QList<double> out;
    for (const QPointF &p : points)
        if (out.isEmpty() || out.last() != p.y())
            out << p.y();
    return out;
}

const QString kQuery = QStringLiteral("DCGM_FI_DEV_GPU_UTIL{Hostname=\"a800-test\"}");

} // namespace

void TestPrometheus::seriesEqualWhatWasWritten()
{
    m_start = QDateTime::currentMSecsSinceEpoch();
    write(37, 64);
    QString error;
    // Wait until Prometheus has scraped the first values (scrape interval 1 s).
    // From the first scrape that saw 37 (a rerun starts from the last run's values).
    qint64 from = 0;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto s = query(kQuery, m_start, QDateTime::currentMSecsSinceEpoch(), 1, &error);
            for (const PromSeries &one : s)
                if (one.labels.value(QStringLiteral("gpu")) == QLatin1String("0") &&
                    !one.points.isEmpty() && one.points.last().y() == 37)
                    from = qint64(one.points.last().x());
            return from > 0;
        }(),
        30000);
    write(81, 64);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto s = query(kQuery, m_start, QDateTime::currentMSecsSinceEpoch(), 1, &error);
            for (const PromSeries &one : s)
                if (one.labels.value(QStringLiteral("gpu")) == QLatin1String("0") &&
                    !one.points.isEmpty() && one.points.last().y() == 81)
                    return true;
            return false;
        }(),
        30000);
    const qint64 end = QDateTime::currentMSecsSinceEpoch();
    QList<PromSeries> s = query(kQuery, from, end, 1, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    std::sort(s.begin(), s.end(), [](const PromSeries &a, const PromSeries &b) {
        return a.labels.value(QStringLiteral("gpu")) < b.labels.value(QStringLiteral("gpu"));
    });
    QCOMPARE(s.size(), 2);
    QCOMPARE(s[0].labels.value(QStringLiteral("UUID")), QStringLiteral("GPU-test-0"));
    QCOMPARE(runs(s[0].points), (QList<double>{37, 81}));
    QCOMPARE(runs(s[1].points), (QList<double>{64}));
    for (const QPointF &p : s[0].points)
        QVERIFY(p.x() >= double(from) && p.x() <= double(end + 1000));
    // One point a second, in order.
    for (qsizetype i = 1; i < s[0].points.size(); ++i)
        QCOMPARE(s[0].points[i].x() - s[0].points[i - 1].x(), 1000.0);
}

void TestPrometheus::chartShowsPrometheusHistory()
{
    ClusterStore store;
    TelemetryStore telemetry(&store);
    PrometheusClient client(m_url);
    TelemetryChart chart(&telemetry);
    const int sampledRanges = chart.rangeCount();
    chart.setPrometheus(&client);
    QCOMPARE(chart.rangeCount(), sampledRanges + 2);
    chart.resize(800, 400);
    chart.show();
    chart.setNode(QStringLiteral("a800-test"));
    QSignalSpy answered(&chart, &TelemetryChart::prometheusAnswered);
    chart.selectRange(sampledRanges); // the last 24 hours, from Prometheus
    QVERIFY(answered.wait(30000) || answered.size() > 0);
    QCOMPARE(answered.last().first().toString(), QString());
    QCOMPARE(chart.seriesCount(), 2);
    QCOMPARE(chart.seriesName(0), QStringLiteral("GPU 0"));
    QCOMPARE(chart.seriesName(1), QStringLiteral("GPU 1"));
    // 144 s steps over a day: the test's values are a few points at the end, and only those.
    const QList<QPointF> gpu0 = chart.seriesPoints(0);
    QVERIFY(!gpu0.isEmpty());
    QCOMPARE(gpu0.last().y(), 81.0);
    for (const QPointF &p : gpu0)
        QVERIFY(p.y() == 37 || p.y() == 81 || p.y() == 0);
    for (const QPointF &p : chart.seriesPoints(1))
        QVERIFY(p.y() == 64 || p.y() == 0);
}

void TestPrometheus::errors()
{
    QString error;
    query(QStringLiteral("DCGM_FI_DEV_GPU_UTIL{"), m_start, QDateTime::currentMSecsSinceEpoch(), 1,
          &error);
    QVERIFY2(error.contains(QLatin1String("bad_data")), qPrintable(error));
    // Nothing listening.
    QTcpServer s;
    QVERIFY(s.listen(QHostAddress::LocalHost));
    const quint16 port = s.serverPort();
    s.close();
    PrometheusClient dead(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)));
    bool done = false;
    dead.queryRange(kQuery, 0, 1000, 1, this, [&](const QList<PromSeries> &r, const QString &e) {
        QVERIFY(r.isEmpty());
        error = e;
        done = true;
    });
    QTRY_VERIFY(done);
    QVERIFY2(error.startsWith(QLatin1String("Cannot reach Prometheus at http://127.0.0.1:")),
             qPrintable(error));
    // A broken answer.
    QString parseError;
    QVERIFY(PrometheusClient::parseMatrix("{\"status\":\"success\",\"data\":{\"resultType\":"
                                          "\"vector\",\"result\":[]}}",
                                          &parseError)
                .isEmpty());
    QVERIFY(parseError.contains(QLatin1String("vector")));
    PrometheusClient::parseMatrix("<html>", &parseError);
    QVERIFY(parseError.contains(QLatin1String("not JSON")));
    QCOMPARE(PrometheusClient::quoted(QStringLiteral("a\"b\\c")),
             QStringLiteral("\"a\\\"b\\\\c\""));
}

QTEST_MAIN(TestPrometheus)
#include "tst_prometheus.moc"
