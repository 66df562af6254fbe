<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>main</name>
    <message>
        <source>Sandbench</source>
        <translation>Sandbench</translation>
    </message>
    <message>
        <source>Run code you do not trust in an OS sandbox.</source>
        <translation>Nicht vertrauenswürdigen Code in einer Betriebssystem-Sandbox ausführen.</translation>
    </message>
    <message>
        <source>The store file to use (default: $SANDBENCH_STORE or the user&apos;s data folder).</source>
        <translation>Die zu verwendende Ablagedatei (Vorgabe: $SANDBENCH_STORE oder der Datenordner des Benutzers).</translation>
    </message>
    <message>
        <source>PATH</source>
        <translation>PFAD</translation>
    </message>
    <message>
        <source>Store unavailable</source>
        <translation>Ablage nicht verfügbar</translation>
    </message>
    <message>
        <source>The store could not be opened:
%1

%2</source>
        <translation>Die Ablage konnte nicht geöffnet werden:
%1

%2</translation>
    </message>
    <message>
        <source>You can still edit and run snippets; runs are not recorded and the file is left untouched.</source>
        <translation>Sie können weiterhin Snippets bearbeiten und ausführen; Ausführungen werden nicht aufgezeichnet, und die Datei bleibt unverändert.</translation>
    </message>
</context>
<context>
    <name>sb::ui::AuditLogModel</name>
    <message>
        <source>The chain breaks at this entry.</source>
        <translation>Hier bricht die Kette.</translation>
    </message>
    <message>
        <source>hash %1
previous %2</source>
        <translation>Hash %1
vorheriger %2</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>Vorgang</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Gegenstand</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
</context>
<context>
    <name>sb::ui::AuditView</name>
    <message>
        <source>&amp;Verify chain</source>
        <translation>Kette &amp;prüfen</translation>
    </message>
    <message>
        <source>Show one operation only</source>
        <translation>Nur einen Vorgang zeigen</translation>
    </message>
    <message>
        <source>Show one actor only</source>
        <translation>Nur einen Akteur zeigen</translation>
    </message>
    <message>
        <source>All operations</source>
        <translation>Alle Vorgänge</translation>
    </message>
    <message>
        <source>All actors</source>
        <translation>Alle Akteure</translation>
    </message>
    <message>
        <source>Filter: subject, details…</source>
        <translation>Filter: Gegenstand, Details…</translation>
    </message>
    <message>
        <source>Show entries holding this text in their actor, operation, subject or details</source>
        <translation>Einträge zeigen, deren Akteur, Vorgang, Gegenstand oder Details diesen Text enthalten</translation>
    </message>
    <message>
        <source>Read the log again</source>
        <translation>Protokoll neu lesen</translation>
    </message>
    <message>
        <source>Walk the whole hash chain and name the first entry that was altered or removed</source>
        <translation>Die ganze Hash-Kette prüfen und den ersten veränderten oder entfernten Eintrag nennen</translation>
    </message>
    <message>
        <source>Stop verifying</source>
        <translation>Prüfung abbrechen</translation>
    </message>
    <message>
        <source>Not verified yet. Verify walks the whole hash chain and names the first entry that was altered or removed.</source>
        <translation>Noch nicht geprüft. „Kette prüfen“ geht die ganze Hash-Kette durch und nennt den ersten veränderten oder entfernten Eintrag.</translation>
    </message>
    <message>
        <source>The store is unavailable: there is no audit log to show.</source>
        <translation>Die Ablage ist nicht verfügbar: Es gibt kein Prüfprotokoll anzuzeigen.</translation>
    </message>
    <message>
        <source>New entries since the last verification. Verify again to cover them.</source>
        <translation>Neue Einträge seit der letzten Prüfung. Erneut prüfen, um sie einzuschließen.</translation>
    </message>
    <message>
        <source>Cannot read the log</source>
        <translation>Protokoll nicht lesbar</translation>
    </message>
    <message>
        <source>Latest entries: %L1</source>
        <translation>Neueste Einträge: %L1</translation>
    </message>
    <message>
        <source>Entries: %L1</source>
        <translation>Einträge: %L1</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>beginnt…</translation>
    </message>
    <message>
        <source>Verifying the hash chain…</source>
        <translation>Hash-Kette wird geprüft…</translation>
    </message>
    <message>
        <source>%L1 of %L2</source>
        <translation>%L1 von %L2</translation>
    </message>
    <message>
        <source>Cannot verify: %1</source>
        <translation>Prüfung nicht möglich: %1</translation>
    </message>
    <message>
        <source>Cancelled (entries checked: %L1): nothing is known about the rest.</source>
        <translation>Abgebrochen (geprüfte Einträge: %L1): Über den Rest ist nichts bekannt.</translation>
    </message>
    <message>
        <source>✔ Intact: the log is empty.</source>
        <translation>✔ Unversehrt: Das Protokoll ist leer.</translation>
    </message>
    <message>
        <source>✔ Intact (entries: %L1). Head #%2: %3</source>
        <translation>✔ Unversehrt (Einträge: %L1). Kopf #%2: %3</translation>
    </message>
    <message>
        <source>✘ Broken at entry %1 (%2): %3</source>
        <translation>✘ Gebrochen bei Eintrag %1 (%2): %3</translation>
    </message>
    <message>
        <source>✘ Broken (%1): %2</source>
        <translation>✘ Gebrochen (%1): %2</translation>
    </message>
    <message>
        <source>The entry is not among the rows shown (removed, or hidden by a filter).</source>
        <translation>Der Eintrag ist nicht unter den gezeigten Zeilen (entfernt oder durch einen Filter ausgeblendet).</translation>
    </message>
</context>
<context>
    <name>sb::ui::MainWindow</name>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>Run the snippet in the sandbox (Ctrl+Return)</source>
        <translation>Das Snippet in der Sandbox ausführen (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>Abbre&amp;chen</translation>
    </message>
    <message>
        <source>Cancel the running job (Esc)</source>
        <translation>Den laufenden Auftrag abbrechen (Esc)</translation>
    </message>
    <message>
        <source>&amp;Demo</source>
        <translation>&amp;Demo</translation>
    </message>
    <message>
        <source>Run every demo case: moves every counter and chart</source>
        <translation>Alle Demo-Fälle ausführen: bewegt jeden Zähler und jedes Diagramm</translation>
    </message>
    <message>
        <source>&amp;About Sandbench</source>
        <translation>Ü&amp;ber Sandbench</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>Shell</source>
        <translation>Shell</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Sprache:</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>Wall-clock limit: the whole run is killed when it is reached</source>
        <translation>Zeitlimit (Echtzeit): bei Erreichen wird die gesamte Ausführung beendet</translation>
    </message>
    <message>
        <source>&amp;Timeout:</source>
        <translation>&amp;Zeitlimit:</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Address-space limit of the run</source>
        <translation>Adressraum-Limit der Ausführung</translation>
    </message>
    <message>
        <source>&amp;Memory:</source>
        <translation>Spei&amp;cher:</translation>
    </message>
    <message>
        <source>Double-click a run to load its snippet into the editor</source>
        <translation>Doppelklick auf eine Ausführung lädt ihr Snippet in den Editor</translation>
    </message>
    <message>
        <source>Run history</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Messwerte</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Store: %1</source>
        <translation>Ablage: %1</translation>
    </message>
    <message>
        <source>The store %1 could not be opened: %2
Runs still work but are not recorded; the file was left untouched.</source>
        <translation>Die Ablage %1 konnte nicht geöffnet werden: %2
Ausführungen funktionieren weiterhin, werden aber nicht aufgezeichnet; die Datei blieb unverändert.</translation>
    </message>
    <message>
        <source>Store unavailable</source>
        <translation>Ablage nicht verfügbar</translation>
    </message>
    <message>
        <source>Demo %v/%m</source>
        <translation>Demo %v/%m</translation>
    </message>
    <message numerus="yes">
        <source>Demo: %n case(s)</source>
        <translation>
            <numerusform>Demo: %n Fall</numerusform>
            <numerusform>Demo: %n Fälle</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Wird abgebrochen…</translation>
    </message>
    <message>
        <source>Demo case %1 of %2: %3</source>
        <translation>Demo-Fall %1 von %2: %3</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft…</translation>
    </message>
    <message>
        <source>The run could not be recorded: %1</source>
        <translation>Die Ausführung konnte nicht aufgezeichnet werden: %1</translation>
    </message>
    <message>
        <source>Demo cancelled.</source>
        <translation>Demo abgebrochen.</translation>
    </message>
    <message>
        <source>Demo finished: every case ended as expected.</source>
        <translation>Demo beendet: jeder Fall endete wie erwartet.</translation>
    </message>
    <message numerus="yes">
        <source>Demo finished: %n case(s) ended unexpectedly.</source>
        <translation>
            <numerusform>Demo beendet: %n Fall endete unerwartet.</numerusform>
            <numerusform>Demo beendet: %n Fälle endeten unerwartet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Loaded the snippet of the run from %1</source>
        <translation>Snippet der Ausführung vom %1 geladen</translation>
    </message>
    <message>
        <source>Open snippet</source>
        <translation>Snippet öffnen</translation>
    </message>
    <message>
        <source>Snippets (*.py *.sh);;All files (*)</source>
        <translation>Snippets (*.py *.sh);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Save snippet</source>
        <translation>Snippet speichern</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>snippet.sh</source>
        <translation>snippet.sh</translation>
    </message>
    <message>
        <source>snippet.py</source>
        <translation>snippet.py</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>The snippet has been modified. Save your changes?</source>
        <translation>Das Snippet wurde geändert. Änderungen speichern?</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>unbenannt</translation>
    </message>
    <message>
        <source>%1[*] — Sandbench</source>
        <translation>%1[*] — Sandbench</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <source>About Sandbench</source>
        <translation>Über Sandbench</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Sandbench %1&lt;/h3&gt;&lt;p&gt;A workbench for running what you do not trust: snippets run in an operating-system sandbox, every outcome is measured and kept in one SQLite store.&lt;/p&gt;&lt;p&gt;Store: &lt;code&gt;%2&lt;/code&gt;&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Sandbench %1&lt;/h3&gt;&lt;p&gt;Eine Werkbank für alles, dem Sie nicht vertrauen: Snippets laufen in einer Betriebssystem-Sandbox, jedes Ergebnis wird gemessen und in einer SQLite-Ablage aufbewahrt.&lt;/p&gt;&lt;p&gt;Ablage: &lt;code&gt;%2&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Isolation level of the run (sandbench doctor explains what this machine offers)</source>
        <translation>Isolationsstufe des Laufs (sandbench doctor erklärt, was dieser Rechner bietet)</translation>
    </message>
    <message>
        <source>&amp;Isolation:</source>
        <translation>&amp;Isolation:</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>Prüfprotokoll</translation>
    </message>
</context>
<context>
    <name>sb::ui::MetricsDashboard</name>
    <message>
        <source>Runs</source>
        <translation>Ausführungen</translation>
    </message>
    <message>
        <source>OK rate</source>
        <translation>OK-Quote</translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation>Blockiert</translation>
    </message>
    <message>
        <source>Timeouts</source>
        <translation>Zeitüberschreitungen</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>Runs by outcome</source>
        <translation>Ausführungen nach Ergebnis</translation>
    </message>
    <message>
        <source>Run duration (ms)</source>
        <translation>Laufzeit (ms)</translation>
    </message>
    <message>
        <source>runs</source>
        <translation>Ausführungen</translation>
    </message>
</context>
<context>
    <name>sb::ui::OutputPane</name>
    <message>
        <source>Output of the run appears here. Press Ctrl+Return to run the snippet.</source>
        <translation>Hier erscheint die Ausgabe der Ausführung. Strg+Eingabe führt das Snippet aus.</translation>
    </message>
    <message>
        <source>no run yet</source>
        <translation>noch keine Ausführung</translation>
    </message>
    <message>
        <source>Run a snippet to see its outcome, timings and isolation layers.</source>
        <translation>Führen Sie ein Snippet aus, um Ergebnis, Zeiten und Isolationsschichten zu sehen.</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>läuft…</translation>
    </message>
    <message>
        <source>Running in the sandbox…</source>
        <translation>Läuft in der Sandbox…</translation>
    </message>
    <message>
        <source>Running %1 in the sandbox…</source>
        <translation>%1 läuft in der Sandbox…</translation>
    </message>
    <message>
        <source>Duration %1 · CPU %2 · Peak RSS %3</source>
        <translation>Dauer %1 · CPU %2 · Spitzen-RSS %3</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <source>signal %1</source>
        <translation>Signal %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; isolation: %2</source>
        <translation>Isolation &lt;b&gt;%1&lt;/b&gt;: %2</translation>
    </message>
    <message>
        <source>The isolation layers this run really had</source>
        <translation>Die Isolationsschichten, die diese Ausführung tatsächlich hatte</translation>
    </message>
    <message>
        <source>[output truncated]</source>
        <translation>[Ausgabe gekürzt]</translation>
    </message>
    <message>
        <source>stdout</source>
        <translation>stdout</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>(leer)</translation>
    </message>
    <message>
        <source>stderr</source>
        <translation>stderr</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>blockiert</translation>
    </message>
</context>
<context>
    <name>sb::ui::RunHistoryModel</name>
    <message>
        <source>exit code %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <source>snippet</source>
        <translation>Snippet</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Detail</translation>
    </message>
</context>
<context>
    <name>sb::ui::Units</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>%1 KB</source>
        <translation>%1 KB</translation>
    </message>
</context>
</TS>
