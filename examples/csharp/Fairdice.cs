// fairdice for C#: Unity, Godot (C#) and any .NET or Mono program, through the C
// library libfairdice_c (fairdice_c.dll on Windows, libfairdice_c.dylib on macOS).
// Copy this file into the project and the library next to it (Unity:
// Assets/Plugins/; Godot: the project folder); see README.md here.
//
//     using (var bag = Fairdice.Randomizer.FromSpec("bag(min=1, max=6)", 42))
//     {
//         long roll = bag.Next();            // 1..6, each once per six draws
//         string saved = bag.Save();         // the text `fairdice sample --save` writes
//     }
//
// A randomizer is used by one thread at a time (a game's main thread, typically);
// different randomizers may be used on different threads at once.

using System;
using System.Runtime.InteropServices;
using System.Text;
using Microsoft.Win32.SafeHandles;

namespace Fairdice
{
    /// <summary>A call fairdice refused: a bad spec or session, a freed randomizer,
    /// a request that does not parse or is too large.</summary>
    public sealed class FairdiceException : Exception
    {
        /// <summary>The JSON error document (<c>{"error": {"kind", "message", …}}</c>),
        /// as the web API and <c>fairdice_run_json</c> give it.</summary>
        public string Json { get; }

        internal FairdiceException(string message, string json) : base(message)
        {
            Json = json;
        }

        /// <summary>The last error of this thread, as an exception.</summary>
        internal static FairdiceException Last()
        {
            string message = Native.Text(Native.fairdice_last_error()) ?? "fairdice failed";
            return new FairdiceException(message, Native.Text(Native.fairdice_last_error_json()));
        }
    }

    /// <summary>A randomizer and its generator, kept inside the library and drawn from
    /// one outcome at a time. Dispose it when done (or let the finalizer).</summary>
    public sealed class Randomizer : IDisposable
    {
        readonly RandomizerHandle handle;

        Randomizer(RandomizerHandle handle)
        {
            if (handle.IsInvalid)
            {
                throw FairdiceException.Last();
            }
            this.handle = handle;
        }

        /// <summary>The randomizer of <paramref name="spec"/> (<c>"deck(values=6)"</c>,
        /// <c>"tgm3"</c>, …), its generator seeded by <paramref name="seed"/>: the draws of
        /// <c>fairdice sample SPEC --seed SEED</c>.</summary>
        public static Randomizer FromSpec(string spec, ulong seed)
        {
            return new Randomizer(Native.fairdice_randomizer_new(Native.Utf8(spec), seed));
        }

        /// <summary>A saved session (<see cref="Save"/>, or <c>fairdice sample --save</c>),
        /// continued where it stopped.</summary>
        public static Randomizer Restore(string session)
        {
            return new Randomizer(Native.fairdice_randomizer_restore(Native.Utf8(session)));
        }

        /// <summary>Draws the next outcome: its value (a die's face; for labelled
        /// families, see <see cref="NextLabel"/>).</summary>
        public long Next()
        {
            long value = Native.fairdice_randomizer_next(handle);
            if (value == long.MinValue)
            {
                throw FairdiceException.Last();
            }
            return value;
        }

        /// <summary>Draws the next outcome: its index among the outcomes.</summary>
        public int NextIndex()
        {
            long index = Native.fairdice_randomizer_next_index(handle);
            if (index < 0)
            {
                throw FairdiceException.Last();
            }
            return (int)index;
        }

        /// <summary>Draws the next outcome: its name (a piece's letter; a value's
        /// digits when the outcomes have no names).</summary>
        public string NextLabel()
        {
            return Label(NextIndex());
        }

        /// <summary>Draws <paramref name="count"/> outcomes: their values.</summary>
        public long[] Take(int count)
        {
            var values = new long[count];
            if (Native.fairdice_randomizer_take(handle, values, (UIntPtr)count) < 0)
            {
                throw FairdiceException.Last();
            }
            return values;
        }

        /// <summary>How many outcomes there are.</summary>
        public int OutcomeCount
        {
            get { return (int)Checked(Native.fairdice_randomizer_outcome_count(handle)); }
        }

        /// <summary>The value of outcome <paramref name="index"/>.</summary>
        public long Value(int index)
        {
            long value = Native.fairdice_randomizer_value(handle, (UIntPtr)index);
            if (value == long.MinValue)
            {
                throw FairdiceException.Last();
            }
            return value;
        }

        /// <summary>The name of outcome <paramref name="index"/>.</summary>
        public string Label(int index)
        {
            return Native.Take(Native.fairdice_randomizer_label(handle, (UIntPtr)index));
        }

        /// <summary>Whether the outcomes have names of their own (pieces,
        /// fail/success).</summary>
        public bool Labelled
        {
            get { return Checked(Native.fairdice_randomizer_labelled(handle)) == 1; }
        }

        /// <summary>How many outcomes this session has drawn, across saves.</summary>
        public long Draws
        {
            get { return Checked(Native.fairdice_randomizer_draws(handle)); }
        }

        /// <summary>The spec, in its canonical form.</summary>
        public string Spec
        {
            get { return Native.Take(Native.fairdice_randomizer_spec(handle)); }
        }

        /// <summary>The session as the text <c>fairdice sample --save</c> writes:
        /// <see cref="Restore"/> (or any front-end of fairdice) continues it.</summary>
        public string Save()
        {
            return Native.Take(Native.fairdice_randomizer_save(handle));
        }

        /// <summary>The distribution of the next outcome: the JSON document
        /// <c>fairdice next --json</c> prints.</summary>
        public string NextDistributionJson()
        {
            return Native.Take(Native.fairdice_randomizer_next_distribution(handle));
        }

        /// <summary>Releases the randomizer; using it afterwards throws.</summary>
        public void Dispose()
        {
            handle.Dispose();
        }

        static long Checked(long value)
        {
            if (value < 0)
            {
                throw FairdiceException.Last();
            }
            return value;
        }
    }

    /// <summary>fairdice's use cases as JSON documents, and its version.</summary>
    public static class Library
    {
        /// <summary>The library's version.</summary>
        public static string Version
        {
            get { return Native.Text(Native.fairdice_version()); }
        }

        /// <summary>Runs a use case (<c>"dist"</c>, <c>"risk"</c>, <c>"analyze"</c>, …)
        /// on its JSON request and returns its JSON report, the document
        /// <c>fairdice … --json</c> prints.</summary>
        public static string RunJson(string useCase, string requestJson)
        {
            return Native.Take(Native.fairdice_run_json(Native.Utf8(useCase), Native.Utf8(requestJson)));
        }

        /// <summary>The budget of the later <see cref="Randomizer.FromSpec"/>,
        /// <see cref="Randomizer.Restore"/> and <see cref="RunJson"/> calls on this
        /// thread: what is estimated above <paramref name="maxSteps"/> work steps or
        /// <paramref name="maxMemory"/> bytes is refused before it starts. 0 keeps the
        /// default (2,000,000,000 steps, 2 GiB). Drawing is never limited.</summary>
        public static void SetLimits(ulong maxSteps, ulong maxMemory)
        {
            Native.fairdice_set_limits(maxSteps, maxMemory);
        }
    }

    /// <summary>A randomizer's handle, released by <c>fairdice_randomizer_free</c>.</summary>
    sealed class RandomizerHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        RandomizerHandle() : base(true)
        {
        }

        protected override bool ReleaseHandle()
        {
            Native.fairdice_randomizer_free(handle);
            return true;
        }
    }

    /// <summary>The C entry points (fairdice.h) and UTF-8 text across them.</summary>
    static class Native
    {
        const string Library = "fairdice_c";

        [DllImport(Library)] internal static extern IntPtr fairdice_version();
        [DllImport(Library)] internal static extern RandomizerHandle fairdice_randomizer_new(byte[] spec, ulong seed);
        [DllImport(Library)] internal static extern RandomizerHandle fairdice_randomizer_restore(byte[] session);
        [DllImport(Library)] internal static extern long fairdice_randomizer_next(RandomizerHandle randomizer);
        [DllImport(Library)] internal static extern long fairdice_randomizer_next_index(RandomizerHandle randomizer);
        [DllImport(Library)] internal static extern long fairdice_randomizer_take(RandomizerHandle randomizer, [Out] long[] values, UIntPtr count);
        [DllImport(Library)] internal static extern long fairdice_randomizer_outcome_count(RandomizerHandle randomizer);
        [DllImport(Library)] internal static extern long fairdice_randomizer_value(RandomizerHandle randomizer, UIntPtr index);
        [DllImport(Library)] internal static extern IntPtr fairdice_randomizer_label(RandomizerHandle randomizer, UIntPtr index);
        [DllImport(Library)] internal static extern int fairdice_randomizer_labelled(RandomizerHandle randomizer);
        [DllImport(Library)] internal static extern long fairdice_randomizer_draws(RandomizerHandle randomizer);
        [DllImport(Library)] internal static extern IntPtr fairdice_randomizer_spec(RandomizerHandle randomizer);
        [DllImport(Library)] internal static extern IntPtr fairdice_randomizer_save(RandomizerHandle randomizer);
        [DllImport(Library)] internal static extern IntPtr fairdice_randomizer_next_distribution(RandomizerHandle randomizer);
        [DllImport(Library)] internal static extern void fairdice_randomizer_free(IntPtr randomizer);
        [DllImport(Library)] internal static extern void fairdice_set_limits(ulong maxSteps, ulong maxMemory);
        [DllImport(Library)] internal static extern IntPtr fairdice_run_json(byte[] useCase, byte[] requestJson);
        [DllImport(Library)] internal static extern IntPtr fairdice_last_error();
        [DllImport(Library)] internal static extern IntPtr fairdice_last_error_json();
        [DllImport(Library)] internal static extern void fairdice_string_free(IntPtr text);

        /// <summary><paramref name="text"/> as NUL-terminated UTF-8 (NULL for null).</summary>
        internal static byte[] Utf8(string text)
        {
            if (text == null)
            {
                return null;
            }
            byte[] bytes = new byte[Encoding.UTF8.GetByteCount(text) + 1];
            Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
            return bytes;
        }

        /// <summary>The NUL-terminated UTF-8 string at <paramref name="text"/>, or null.</summary>
        internal static string Text(IntPtr text)
        {
            if (text == IntPtr.Zero)
            {
                return null;
            }
            int length = 0;
            while (Marshal.ReadByte(text, length) != 0)
            {
                length++;
            }
            byte[] bytes = new byte[length];
            Marshal.Copy(text, bytes, 0, length);
            return Encoding.UTF8.GetString(bytes);
        }

        /// <summary>A string the library returned, read and freed; a NULL one is the
        /// thread's last error, thrown.</summary>
        internal static string Take(IntPtr text)
        {
            if (text == IntPtr.Zero)
            {
                throw FairdiceException.Last();
            }
            try
            {
                return Text(text);
            }
            finally
            {
                fairdice_string_free(text);
            }
        }
    }
}
