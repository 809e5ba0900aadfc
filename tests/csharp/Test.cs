// The C library from C# through P/Invoke, with the binding class users copy
// (examples/csharp/Fairdice.cs); scripts/test-c.sh compiles it with Mono's mcs and
// runs it.
//
//   test                        the binding: draws, saves, errors, disposed randomizers
//   draw SPEC SEED COUNT        COUNT outcomes, printed as `fairdice sample` prints them
//   resume FILE COUNT           the session saved in FILE, continued for COUNT draws

using System;
using System.IO;
using System.Linq;
using Fairdice;

static class Test
{
    static int failures;

    static void Check(bool condition, string what)
    {
        if (!condition)
        {
            Console.Error.WriteLine("failed: " + what);
            failures++;
        }
    }

    static void Throws<E>(Action action, string what, string part = null) where E : Exception
    {
        try
        {
            action();
            Check(false, what + " (no exception)");
        }
        catch (E e)
        {
            Check(part == null || e.Message.Contains(part), what + " (message: " + e.Message + ")");
        }
    }

    static void DrawsSavesAndRestores()
    {
        long[] expected;
        using (var uninterrupted = Randomizer.FromSpec("tgm3", 42))
        {
            expected = uninterrupted.Take(40);
        }
        string saved;
        using (var first = Randomizer.FromSpec("tgm3", 42))
        {
            for (int i = 0; i < 15; i++)
            {
                Check(first.Next() == expected[i], "draw " + i);
            }
            saved = first.Save();
            Check(first.Labelled, "tgm3's pieces have names");
            Check(first.OutcomeCount == 7, "seven pieces");
            Check(first.Spec.StartsWith("tgm3("), "the canonical spec: " + first.Spec);
        }
        using (var resumed = Randomizer.Restore(saved))
        {
            Check(resumed.Draws == 15, "15 draws saved");
            Check(resumed.Take(25).SequenceEqual(expected.Skip(15)), "the restored session continues");
            Check(resumed.NextDistributionJson().Contains("\"outcomes\""), "the next distribution");
            Check(resumed.Label(0).Length == 1, "a piece's letter");
        }
        using (var die = Randomizer.FromSpec("dice(values=6)", 1))
        {
            Check(!die.Labelled && die.Value(5) == 6, "a die's faces");
            Check(Enumerable.Range(0, 1000).All(_ => { long v = die.Next(); return v >= 1 && v <= 6; }), "faces 1..6");
        }
    }

    static void BadInputThrows()
    {
        Throws<FairdiceException>(() => Randomizer.FromSpec("deck(values=6", 1), "a bad spec", "expected");
        Throws<FairdiceException>(() => Randomizer.FromSpec(null, 1), "a null spec", "NULL");
        Throws<FairdiceException>(() => Randomizer.Restore("{\"format\": \"other\"}"), "a foreign session");
        Throws<FairdiceException>(() => Randomizer.Restore(""), "an empty session");
        var die = Randomizer.FromSpec("deck(values=6)", 1);
        Throws<FairdiceException>(() => die.Value(6), "an index out of range", "index 6");
        Throws<FairdiceException>(() => die.Label(-1), "a negative index");
        die.Dispose();
        Throws<ObjectDisposedException>(() => die.Next(), "a disposed randomizer");
        die.Dispose();
        try
        {
            Library.RunJson("dist", "{\"expression\": \"4d6kh3y\"}");
            Check(false, "a bad expression throws");
        }
        catch (FairdiceException e)
        {
            Check(e.Message.Contains("^"), "a caret under the fault: " + e.Message);
            Check(e.Json.Contains("\"kind\":\"parse\""), "the error document: " + e.Json);
        }
        Throws<FairdiceException>(() => Library.RunJson("no_such_use_case", "{}"), "an unknown use case", "no_such_use_case");
    }

    static void RunJson()
    {
        string report = Library.RunJson("dist", "{\"expression\": \"4d6kh3\"}");
        Check(report.Contains("\"15869/1296\""), "4d6kh3's mean: " + report.Substring(0, Math.Min(200, report.Length)));
        Check(Library.Version.Length > 0, "a version");
        Library.SetLimits(0, 1 << 20);
        Throws<FairdiceException>(() => Randomizer.FromSpec("dice(base=300d300)", 1), "a base past the memory limit", "MiB");
        Library.SetLimits(0, 0);
        using (Randomizer big = Randomizer.FromSpec("dice(base=300d300)", 1))
        {
            Check(big.OutcomeCount == 89701, "the default limits open it");
        }
    }

    static void Print(Randomizer randomizer, int count)
    {
        Console.WriteLine(string.Join(" ", Enumerable.Range(0, count).Select(_ => randomizer.NextLabel())));
    }

    static int Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "test")
        {
            DrawsSavesAndRestores();
            BadInputThrows();
            RunJson();
            GC.Collect();
            GC.WaitForPendingFinalizers();
            if (failures > 0)
            {
                Console.Error.WriteLine(failures + " checks failed");
                return 1;
            }
            Console.WriteLine("every check passed (fairdice " + Library.Version + ", C#)");
            return 0;
        }
        if (args.Length == 4 && args[0] == "draw")
        {
            using (var randomizer = Randomizer.FromSpec(args[1], ulong.Parse(args[2])))
            {
                Print(randomizer, int.Parse(args[3]));
            }
            return 0;
        }
        if (args.Length == 3 && args[0] == "resume")
        {
            using (var randomizer = Randomizer.Restore(File.ReadAllText(args[1])))
            {
                Print(randomizer, int.Parse(args[2]));
            }
            return 0;
        }
        Console.Error.WriteLine("usage: test | draw SPEC SEED COUNT | resume FILE COUNT");
        return 2;
    }
}
