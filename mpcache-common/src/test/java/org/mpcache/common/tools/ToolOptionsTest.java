package org.mpcache.common.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class ToolOptionsTest {

  private static ToolOptions options() {
    return new ToolOptions("Demo", "Does a demo.")
        .preset("big", "a bigger run", Map.of("jobs", 30))
        .option("jobs", "N", "jobs to run", 5)
        .option("ratio", "X", "a ratio", 0.5)
        .option("sizes", "a,b", "sizes in MiB", "64,128")
        .optional("out", "DIR", "where to write", "nowhere")
        .settings("KEY=VALUE", "a setting");
  }

  private static ToolOptions positional() {
    return new ToolOptions("Gen", "Generates.")
        .argument("kind", "what to generate", null)
        .argument("seed", "the seed", 42)
        .remaining("extra", "more", "none");
  }

  /** Runs {@link ToolOptions#run} with a body that records nothing and returns 7. */
  private static String[] run(ToolOptions o, Configuration conf, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = o.run(args, conf, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), v -> {
          v.positiveInt("jobs");
          return 7;
        });
    return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void help_listsEveryOptionWithArgumentAndDefault() throws Exception {
    String[] r = run(options(), null, "--help");
    assertEquals("0", r[0]);
    String help = r[1].replaceAll("\\s+", " ");
    for (String s : new String[] {"-h,--help", "--big", "(default: off)", "--jobs <N>",
        "(default: 5; 30 with --big)", "--ratio <X>", "(default: 0.5)", "--sizes <a,b>",
        "(default: 64,128)", "--out <DIR>", "(default: nowhere)", "-D <KEY=VALUE>",
        "Usage: Demo [options]"}) {
      assertTrue(help.contains(s), s + " not in " + help);
    }
    assertEquals("", r[2]);
  }

  @Test
  void help_positionalArguments_listedWithDefaults() {
    String help = positional().help().replaceAll("\\s+", " ");
    assertTrue(help.contains("Gen [options] <kind> [<seed>] [<extra> ...]"), help);
    assertTrue(help.contains("<kind> what to generate (default: required)"), help);
    assertTrue(help.contains("<seed> the seed (default: 42)"), help);
  }

  @Test
  void run_unknownOption_exits1NamingIt() throws Exception {
    String[] r = run(options(), null, "--jobs", "3", "--bogus", "x");
    assertEquals("1", r[0]);
    assertTrue(r[2].startsWith("Demo: unknown option --bogus"), r[2]);
    assertTrue(r[2].contains("--ratio <X>"), "usage follows: " + r[2]);
    assertEquals("", r[1]);
  }

  @Test
  void run_abbreviatedOption_isUnknown() throws Exception {
    assertTrue(run(options(), null, "--job", "3")[2].contains("unknown option --job"));
  }

  @Test
  void run_badNumber_namesOptionAndValue() throws Exception {
    String[] r = run(options(), null, "--jobs", "many");
    assertEquals("1", r[0]);
    assertTrue(r[2].startsWith("Demo: --jobs needs a whole number, got 'many'"), r[2]);
  }

  @Test
  void run_outOfRange_namesOptionAndValue() throws Exception {
    String[] r = run(options(), null, "--jobs", "0");
    assertEquals("1", r[0]);
    assertTrue(r[2].startsWith("Demo: --jobs must be at least 1, got '0'"), r[2]);
  }

  @Test
  void run_missingValue_namesOption() throws Exception {
    String[] r = run(options(), null, "--out");
    assertEquals("1", r[0]);
    assertTrue(r[2].startsWith("Demo: --out needs a value: DIR"), r[2]);
  }

  @Test
  void run_helpAmongBadOptions_stillHelps() throws Exception {
    assertEquals("0", run(options(), null, "--bogus", "-h")[0]);
  }

  @Test
  void run_settings_appliedToConfigurationFromCommandLine() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("a.before", "1", ToolOptions.COMMAND_LINE);
    conf.set("a.site", "2");
    assertEquals("7", run(options(), conf, "--jobs", "2", "-D", "a.b=c=d")[0]);
    assertEquals("c=d", conf.get("a.b"));
    assertEquals(Map.of("a.before", "1", "a.b", "c=d"), ToolOptions.commandLineSettings(conf));
    assertTrue(run(options(), conf, "-D", "novalue")[2]
        .startsWith("Demo: -D needs key=value, got 'novalue'"));
  }

  @Test
  void parse_typedGetters_valuesAndDefaults() {
    ToolOptions.Values v = options().parse(new String[] {"--sizes", "1, 2,3", "--out", "x/y",
        "--jobs", "4", "--jobs", "9"});
    assertEquals(9, v.positiveInt("jobs"), "the last one given wins");
    assertEquals(0.5, v.positiveDouble("ratio"));
    assertEquals(List.of(1L, 2L, 3L), v.positiveLongs("sizes"));
    assertEquals(Path.of("x/y"), v.path("out"));
    assertTrue(v.has("out"));
    ToolOptions.Values d = options().parse(new String[0]);
    assertNull(d.path("out"));
    assertEquals(List.of(64L, 128L), d.positiveLongs("sizes"));
    assertEquals(5, d.positiveInt("jobs"));
    assertEquals(30, options().parse(new String[] {"--big"}).positiveInt("jobs"));
    assertEquals(3, options().parse(new String[] {"--jobs", "3", "--big"}).positiveInt("jobs"));
  }

  @Test
  void parse_badValues_nameOptionAndValue() {
    ToolOptions.Values v = options().parse(new String[] {"--ratio", "-1", "--sizes", "64,x"});
    assertEquals("--ratio must be greater than 0, got '-1'",
        assertThrows(ToolOptions.UsageException.class, () -> v.positiveDouble("ratio"))
            .getMessage());
    assertEquals("--sizes needs a whole number, got 'x'",
        assertThrows(ToolOptions.UsageException.class, () -> v.positiveLongs("sizes"))
            .getMessage());
    assertEquals("--sizes: unknown value '64'; known: 1, 2",
        assertThrows(ToolOptions.UsageException.class, () -> v.allOf("sizes", List.of("1", "2")))
            .getMessage());
    assertEquals("--ratio: bad -1", assertThrows(ToolOptions.UsageException.class,
        () -> v.value("ratio", s -> {
          throw new IllegalArgumentException("bad " + s);
        })).getMessage());
  }

  @Test
  void parse_positionalArguments_requiredDefaultsAndRest() {
    ToolOptions.Values v = positional().parse(new String[] {"k", "7", "a", "b"});
    assertEquals("k", v.string("kind"));
    assertEquals(7, v.longValue("seed"));
    assertEquals(List.of("a", "b"), v.strings("extra"));
    ToolOptions.Values d = positional().parse(new String[] {"k"});
    assertEquals(42, d.longValue("seed"));
    assertEquals(List.of(), d.strings("extra"));
    assertEquals("missing argument <kind>", assertThrows(ToolOptions.UsageException.class,
        () -> positional().parse(new String[0])).getMessage());
    assertEquals("<seed> needs a whole number, got 'x'",
        assertThrows(ToolOptions.UsageException.class,
            () -> positional().parse(new String[] {"k", "x"}).longValue("seed")).getMessage());
    assertEquals("unexpected argument 'extra'", assertThrows(ToolOptions.UsageException.class,
        () -> options().parse(new String[] {"extra"})).getMessage());
  }
}
