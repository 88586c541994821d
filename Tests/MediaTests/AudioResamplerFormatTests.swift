import Testing

@testable import Media

@Suite struct AudioResamplerFormatTests {
    @Test(arguments: [
        (44_100, 1, 44_100, 1), (48_000, 2, 48_000, 2), (22_050, 2, 22_050, 2), (8_000, 1, 8_000, 1),
        (96_000, 6, 48_000, 2), (37_800, 2, 48_000, 2), (88_200, 1, 48_000, 1), (7_350, 8, 48_000, 2),
    ])
    func keepsRatesAACHasAndMakesMonoOrStereo(_ rate: Int, _ channels: Int, _ outRate: Int, _ outChannels: Int) {
        let format = AudioResampler.outputFormat(sampleRate: rate, channels: channels)
        #expect(format.sampleRate == outRate && format.channels == outChannels)
    }
}
